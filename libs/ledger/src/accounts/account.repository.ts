import { Injectable } from '@nestjs/common';
import { Database, type SqlExecutor } from '@ledger/db';
import type { Side } from '../domain/balances';
import { isUuid } from '../domain/posting-plan';
import type { AccountRecord } from './account.view';

const INSERT_ACCOUNT = `
INSERT INTO accounts (tenant_id, id, code, name, currency, normal_balance, allow_negative, metadata)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8::text::jsonb)
ON CONFLICT (tenant_id, code) DO NOTHING
RETURNING created_at`;

export interface NewAccount {
  id: string;
  code: string;
  name?: string;
  currency: string;
  normalBalance: Side;
  allowNegative: boolean;
  metadata: Record<string, unknown>;
}

@Injectable()
export class AccountRepository {
  constructor(private readonly db: Database) {}

  /** Returns undefined when the tenant already has an account with this code. */
  async insert(tx: SqlExecutor, tenantId: string, account: NewAccount): Promise<AccountRecord | undefined> {
    const rows = await tx.query<{ created_at: Date }>(INSERT_ACCOUNT, [
      tenantId,
      account.id,
      account.code,
      account.name ?? null,
      account.currency,
      account.normalBalance,
      account.allowNegative,
      JSON.stringify(account.metadata),
    ]);
    if (rows.length === 0) return undefined;
    return {
      ...account,
      name: account.name ?? null,
      postedDebits: 0n,
      postedCredits: 0n,
      pendingDebits: 0n,
      pendingCredits: 0n,
      version: 0n,
      createdAt: rows[0]!.created_at,
    };
  }

  /** An account by id or by code, within one tenant. */
  async findByRef(tenantId: string, ref: string): Promise<AccountRecord | undefined> {
    const where = isUuid(ref) ? { tenantId, id: ref.toLowerCase() } : { tenantId, code: ref };
    const row = await this.db.prisma.account.findFirst({ where });
    if (row === null) return undefined;
    return {
      id: row.id,
      code: row.code,
      name: row.name,
      currency: row.currency,
      normalBalance: row.normalBalance as Side,
      allowNegative: row.allowNegative,
      metadata: row.metadata as Record<string, unknown>,
      postedDebits: row.postedDebits,
      postedCredits: row.postedCredits,
      pendingDebits: row.pendingDebits,
      pendingCredits: row.pendingCredits,
      version: row.version,
      createdAt: row.createdAt,
    };
  }

  /** Newest first, from just below `beforeVersion` (the account's version after an entry). */
  async listEntries(tenantId: string, accountId: string, beforeVersion: bigint | undefined, take: number) {
    return this.db.prisma.entry.findMany({
      where: { tenantId, accountId, ...(beforeVersion === undefined ? {} : { accountVersion: { lt: beforeVersion } }) },
      orderBy: { accountVersion: 'desc' },
      take,
    });
  }
}
