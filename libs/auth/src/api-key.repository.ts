import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import type { Role } from './roles';

export interface StoredApiKey {
  tenantId: string;
  id: string;
  secretHash: Buffer;
  roles: Role[];
  revokedAt: Date | null;
  expiresAt: Date | null;
}

export interface NewApiKey {
  tenantId: string;
  id: string;
  name: string;
  secretHash: Uint8Array<ArrayBuffer>;
  roles: readonly Role[];
  expiresAt: Date | null;
}

@Injectable()
export class ApiKeyRepository {
  constructor(private readonly db: Database) {}

  async insert(key: NewApiKey): Promise<void> {
    await this.db.prisma.apiKey.create({ data: { ...key, roles: [...key.roles] }, select: { id: true } });
  }

  /**
   * Measured on the 2-core development machine: one lookup at a time, Prisma's findUnique took
   * 1.3-2.0 ms where the same SELECT through `Database.query` took 0.23-0.46 ms; 16 at a time, which
   * Prisma batches, 0.14-0.43 ms against 0.12-0.30 ms. It stays Prisma: AuthenticateUseCase keeps a
   * verified key for 10 s, so a process makes this lookup once per key per 10 s, not per request.
   */
  async find(tenantId: string, id: string): Promise<StoredApiKey | undefined> {
    const row = await this.db.prisma.apiKey.findUnique({
      where: { tenantId_id: { tenantId, id } },
      select: { secretHash: true, roles: true, revokedAt: true, expiresAt: true },
    });
    if (row === null) return undefined;
    return {
      tenantId,
      id,
      secretHash: Buffer.from(row.secretHash),
      roles: row.roles as Role[],
      revokedAt: row.revokedAt,
      expiresAt: row.expiresAt,
    };
  }
}
