import { Injectable } from '@nestjs/common';
import { Database, type SqlExecutor } from '@ledger/db';
import type { Side } from '../domain/balances';
import { isUuid } from '@ledger/ids';
import type { AccountRecord } from './account.view';
import { ACCOUNT_KEYS_AFTER, BALANCES_AS_OF, LIST_ACCOUNTS, TAKE_SNAPSHOTS } from './balance-history.sql';

interface AccountRow {
  id: string;
  code: string;
  name: string | null;
  currency: string;
  normal_balance: Side;
  allow_negative: boolean;
  metadata: Record<string, unknown>;
  posted_debits: bigint;
  posted_credits: bigint;
  pending_debits: bigint;
  pending_credits: bigint;
  version: bigint;
  created_at: Date;
}

/** An account's posted totals at some time. */
export interface AccountPostedTotals {
  id: string;
  code: string;
  currency: string;
  normalBalance: Side;
  postedDebits: bigint;
  postedCredits: bigint;
}

export interface AccountFilter {
  currency?: string;
  codePrefix?: string;
  metadata?: Record<string, unknown>;
  afterId?: string;
}

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

  async list(tenantId: string, filter: AccountFilter, take: number): Promise<AccountRecord[]> {
    const rows = await this.db.executor.query<AccountRow>(LIST_ACCOUNTS, [
      tenantId,
      filter.currency ?? null,
      filter.codePrefix ?? null,
      filter.metadata === undefined ? null : JSON.stringify(filter.metadata),
      filter.afterId ?? null,
      take,
    ]);
    return rows.map((row) => ({
      id: row.id,
      code: row.code,
      name: row.name,
      currency: row.currency,
      normalBalance: row.normal_balance,
      allowNegative: row.allow_negative,
      metadata: row.metadata,
      postedDebits: row.posted_debits,
      postedCredits: row.posted_credits,
      pendingDebits: row.pending_debits,
      pendingCredits: row.pending_credits,
      version: row.version,
      createdAt: row.created_at,
    }));
  }

  async postedTotalsAsOf(
    tenantId: string,
    accountId: string,
    asOf: Date,
  ): Promise<{ postedDebits: bigint; postedCredits: bigint }> {
    const [totals] = await this.balancesAsOf(tenantId, asOf, { accountId, limit: 1 });
    return totals!;
  }

  /** Posted totals at `asOf` of one account or of all the tenant's accounts (at most `limit`), in id order. */
  async balancesAsOf(
    tenantId: string,
    asOf: Date,
    scope: { accountId?: string; limit: number },
  ): Promise<AccountPostedTotals[]> {
    const rows = await this.db.executor.query<{
      id: string;
      code: string;
      currency: string;
      normal_balance: Side;
      posted_debits: string;
      posted_credits: string;
    }>(BALANCES_AS_OF, [tenantId, asOf, scope.accountId ?? null, scope.limit]);
    // Sums of bigint are numeric in PostgreSQL: read them as exact text, never as floats.
    return rows.map((row) => ({
      id: row.id,
      code: row.code,
      currency: row.currency,
      normalBalance: row.normal_balance,
      postedDebits: BigInt(row.posted_debits),
      postedCredits: BigInt(row.posted_credits),
    }));
  }

  async accountKeysAfter(after: { tenantId: string; id: string }, limit: number) {
    const rows = await this.db.executor.query<{ tenant_id: string; id: string }>(ACCOUNT_KEYS_AFTER, [
      after.tenantId,
      after.id,
      limit,
    ]);
    return rows.map((row) => ({ tenantId: row.tenant_id, id: row.id }));
  }

  async takeSnapshots(asOf: Date, accounts: readonly { tenantId: string; id: string }[]): Promise<number> {
    const rows = await this.db.executor.query<{ count: bigint }>(
      `WITH inserted AS (${TAKE_SNAPSHOTS} RETURNING 1) SELECT count(*)::int8 AS count FROM inserted`,
      [asOf, accounts.map((account) => account.tenantId), accounts.map((account) => account.id)],
    );
    return Number(rows[0]!.count);
  }
}
