import { Injectable } from '@nestjs/common';
import { DomainError } from '@ledger/errors';
import { newId } from '@ledger/ids';
import { ApiKeyRepository } from './api-key.repository';
import { issueApiKey } from './api-key-secret';
import type { Role } from './roles';

export interface CreateApiKeyCommand {
  tenantId: string;
  name: string;
  roles: Role[];
  /** From then on the key is refused like a revoked one; absent, it never expires. */
  expiresAt?: Date;
}

export interface CreatedApiKey {
  id: string;
  name: string;
  key: string;
  roles: Role[];
  expiresAt: string | null;
}

@Injectable()
export class CreateApiKeyUseCase {
  constructor(private readonly keys: ApiKeyRepository) {}

  /** The key's plaintext is returned this once; only its hash is stored. */
  async execute(command: CreateApiKeyCommand, now = new Date()): Promise<CreatedApiKey> {
    const expiresAt = command.expiresAt ?? null;
    if (expiresAt !== null && !(expiresAt.getTime() > now.getTime())) {
      throw new DomainError('VALIDATION_FAILED', 'expiresAt must be in the future', {
        fields: [{ path: 'expiresAt', message: 'must be in the future' }],
      });
    }
    const id = newId();
    const issued = issueApiKey(command.tenantId, id);
    const roles = [...new Set(command.roles)];
    await this.keys.insert({
      tenantId: command.tenantId,
      id,
      name: command.name,
      secretHash: issued.secretHash,
      roles,
      expiresAt,
    });
    return { id, name: command.name, key: issued.plaintext, roles, expiresAt: expiresAt?.toISOString() ?? null };
  }
}
