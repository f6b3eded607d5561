import { Injectable } from '@nestjs/common';
import { newId } from '@ledger/ids';
import { ApiKeyRepository } from './api-key.repository';
import { issueApiKey } from './api-key-secret';
import type { Role } from './roles';

export interface CreateApiKeyCommand {
  tenantId: string;
  name: string;
  roles: Role[];
}

@Injectable()
export class CreateApiKeyUseCase {
  constructor(private readonly keys: ApiKeyRepository) {}

  /** The key's plaintext is returned this once; only its hash is stored. */
  async execute(command: CreateApiKeyCommand): Promise<{ id: string; name: string; key: string; roles: Role[] }> {
    const id = newId();
    const issued = issueApiKey(command.tenantId, id);
    const roles = [...new Set(command.roles)];
    await this.keys.insert({
      tenantId: command.tenantId,
      id,
      name: command.name,
      secretHash: issued.secretHash,
      roles,
    });
    return { id, name: command.name, key: issued.plaintext, roles };
  }
}
