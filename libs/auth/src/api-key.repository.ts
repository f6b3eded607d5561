import { Injectable } from '@nestjs/common';
import { Database, type SqlExecutor } from '@ledger/db';
import type { Role } from './roles';

export interface StoredApiKey {
  tenantId: string;
  id: string;
  secretHash: Buffer;
  roles: Role[];
  revokedAt: Date | null;
}

@Injectable()
export class ApiKeyRepository {
  constructor(private readonly db: Database) {}

  async insertTenant(tx: SqlExecutor, tenant: { id: string; name: string }): Promise<void> {
    await tx.query('INSERT INTO tenants (id, name) VALUES ($1, $2)', [tenant.id, tenant.name]);
  }

  async insert(
    tx: SqlExecutor,
    key: { tenantId: string; id: string; name: string; secretHash: Buffer; roles: readonly Role[] },
  ) {
    await tx.query('INSERT INTO api_keys (tenant_id, id, name, secret_hash, roles) VALUES ($1, $2, $3, $4, $5)', [
      key.tenantId,
      key.id,
      key.name,
      key.secretHash,
      key.roles,
    ]);
  }

  async find(tenantId: string, id: string): Promise<StoredApiKey | undefined> {
    const row = await this.db.prisma.apiKey.findUnique({ where: { tenantId_id: { tenantId, id } } });
    if (row === null) return undefined;
    return {
      tenantId,
      id,
      secretHash: Buffer.from(row.secretHash),
      roles: row.roles as Role[],
      revokedAt: row.revokedAt,
    };
  }
}
