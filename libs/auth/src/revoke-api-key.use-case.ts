import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import { isUuid } from '@ledger/ids';
import { ApiKeyRepository, type ApiKeyView } from './api-key.repository';
import { AuthenticateUseCase } from './authenticate.use-case';

/**
 * Sets a key's revoked_at; from then on it answers 401 in this process at once and in every other one
 * within the key cache time. Revoking a revoked key answers the same. The tenant's last live admin key
 * cannot be revoked (409 LAST_ADMIN_KEY): a tenant never locks itself out.
 */
@Injectable()
export class RevokeApiKeyUseCase {
  constructor(
    private readonly db: Database,
    private readonly keys: ApiKeyRepository,
    private readonly authenticate: AuthenticateUseCase,
  ) {}

  async execute(command: { tenantId: string; id: string }): Promise<ApiKeyView> {
    const id = command.id.toLowerCase();
    if (!isUuid(id)) throw notFound(command.id);
    const revoked = await this.db.transaction('read committed', async () => {
      const locked = await this.keys.lockForRevocation(command.tenantId, id);
      const target = locked.find((row) => row.id === id);
      if (target === undefined) throw notFound(command.id);
      if (target.live && target.admin && !locked.some((row) => row.id !== id && row.admin && row.live)) {
        throw new DomainError('LAST_ADMIN_KEY', `key ${id} is the tenant's last admin key; create another first`, {
          keyId: id,
        });
      }
      await this.keys.revoke(command.tenantId, id);
      return (await this.keys.view(command.tenantId, id))!;
    });
    this.authenticate.forget(command.tenantId, id);
    return revoked;
  }
}

function notFound(id: string): DomainError {
  return new DomainError('NOT_FOUND', `API key ${id} not found`);
}
