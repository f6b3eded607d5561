import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { LOCK_KEY_AND_LIVE_ADMINS, type LockedKeyRow, REVOKE_KEY } from './api-keys.sql';
import type { Role } from './roles';

/** A key as its tenant's admins see it: never its secret or the secret's hash. */
export interface ApiKeyView {
  id: string;
  name: string;
  roles: Role[];
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

const VIEW_FIELDS = { id: true, name: true, roles: true, createdAt: true, expiresAt: true, revokedAt: true } as const;

function viewOf(row: {
  id: string;
  name: string;
  roles: string[];
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
}): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    roles: row.roles as Role[],
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

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
   * verified key for LEDGER_KEY_CACHE_SECONDS (10 s by default), so a process makes this lookup once per key
   * per that time, not per request.
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

  /** Newest first, keyset by id (time-ordered): the keys before `beforeId`. */
  async list(tenantId: string, beforeId: string | undefined, limit: number): Promise<ApiKeyView[]> {
    const rows = await this.db.prisma.apiKey.findMany({
      where: { tenantId, ...(beforeId === undefined ? {} : { id: { lt: beforeId } }) },
      orderBy: { id: 'desc' },
      take: limit,
      select: VIEW_FIELDS,
    });
    return rows.map(viewOf);
  }

  async view(tenantId: string, id: string): Promise<ApiKeyView | undefined> {
    const row = await this.db.prisma.apiKey.findUnique({
      where: { tenantId_id: { tenantId, id } },
      select: VIEW_FIELDS,
    });
    return row === null ? undefined : viewOf(row);
  }

  /** Inside a transaction: the key and the tenant's live admin keys, locked (see the statement). */
  lockForRevocation(tenantId: string, id: string): Promise<LockedKeyRow[]> {
    return this.db.query(LOCK_KEY_AND_LIVE_ADMINS, { tenantId, id });
  }

  async revoke(tenantId: string, id: string): Promise<void> {
    await this.db.query(REVOKE_KEY, { tenantId, id });
  }
}
