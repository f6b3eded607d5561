import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { newId } from '@ledger/ids';
import { ApiKeyRepository } from './api-key.repository';
import { issueApiKey } from './api-key-secret';
import { TenantRepository } from './tenant.repository';

export interface CreatedTenant {
  tenant: { id: string; name: string };
  /** The tenant's first admin key, shown this once. */
  apiKey: string;
}

@Injectable()
export class CreateTenantUseCase {
  constructor(
    private readonly db: Database,
    private readonly tenants: TenantRepository,
    private readonly keys: ApiKeyRepository,
  ) {}

  async execute(command: { name: string }): Promise<CreatedTenant> {
    const tenant = { id: newId(), name: command.name };
    const keyId = newId();
    const issued = issueApiKey(tenant.id, keyId);
    // The tenant and its first key commit together (inside the audit's transaction when over HTTP).
    await this.db.transaction('read committed', async () => {
      await this.tenants.insert(tenant);
      await this.keys.insert({
        tenantId: tenant.id,
        id: keyId,
        name: 'initial admin key',
        secretHash: issued.secretHash,
        roles: ['admin'],
        expiresAt: null,
      });
    });
    return { tenant, apiKey: issued.plaintext };
  }
}
