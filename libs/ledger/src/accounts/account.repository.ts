import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { isUuid } from '@ledger/ids';
import type { Side } from '../domain/balances';
import type { AccountRecord } from './account.view';
import {
  ACCOUNT_BY_CODE,
  ACCOUNT_BY_ID,
  ACCOUNT_KEYS_AFTER,
  type AccountEntryRow,
  type AccountRow,
  BALANCES_AS_OF,
  ENTRIES_BEFORE_VERSION,
  INSERT_ACCOUNT,
  LIST_ACCOUNTS,
  NEWEST_ENTRIES,
  TAKE_SNAPSHOTS,
} from './balance-history.sql';

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

export interface NewAccount {
  id: string;
  code: string;
  name?: string;
  currency: string;
  normalBalance: Side;
  allowNegative: boolean;
  metadata: Record<string, unknown>;
}

/** One entry of an account's history. */
export interface AccountEntryRecord {
  transactionId: string;
  leg: number;
  direction: Side;
  pending: boolean;
  amountMinor: bigint;
  currency: string;
  postedBalanceAfter: bigint;
  accountVersion: bigint;
  effectiveAt: Date;
  createdAt: Date;
}

function entryRecordOf(row: AccountEntryRow): AccountEntryRecord {
  return {
    transactionId: row.transaction_id,
    leg: row.leg,
    direction: row.direction,
    pending: row.pending,
    amountMinor: row.amount_minor,
    currency: row.currency,
    postedBalanceAfter: row.posted_balance_after,
    accountVersion: row.account_version,
    effectiveAt: row.effective_at,
    createdAt: row.created_at,
  };
}

function recordOf(row: AccountRow): AccountRecord {
  return {
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
  };
}

@Injectable()
export class AccountRepository {
  constructor(private readonly db: Database) {}

  /** Returns undefined when the tenant already has an account with this code. */
  async insert(tenantId: string, account: NewAccount): Promise<AccountRecord | undefined> {
    const rows = await this.db.query(INSERT_ACCOUNT, {
      tenantId,
      id: account.id,
      code: account.code,
      name: account.name ?? null,
      currency: account.currency,
      normalBalance: account.normalBalance,
      allowNegative: account.allowNegative,
      metadataJson: JSON.stringify(account.metadata),
    });
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
    const rows = isUuid(ref)
      ? await this.db.query(ACCOUNT_BY_ID, { tenantId, id: ref.toLowerCase() })
      : await this.db.query(ACCOUNT_BY_CODE, { tenantId, code: ref });
    return rows.length === 0 ? undefined : recordOf(rows[0]!);
  }

  /** Newest first, from just below `beforeVersion` (the account's version after an entry). */
  async listEntries(
    tenantId: string,
    accountId: string,
    beforeVersion: bigint | undefined,
    limit: number,
  ): Promise<AccountEntryRecord[]> {
    const rows =
      beforeVersion === undefined
        ? await this.db.query(NEWEST_ENTRIES, { tenantId, accountId, limit })
        : await this.db.query(ENTRIES_BEFORE_VERSION, { tenantId, accountId, beforeVersion, limit });
    return rows.map(entryRecordOf);
  }

  async list(tenantId: string, filter: AccountFilter, take: number): Promise<AccountRecord[]> {
    const rows = await this.db.query(LIST_ACCOUNTS, {
      tenantId,
      currency: filter.currency ?? null,
      codePrefix: filter.codePrefix ?? null,
      metadata: filter.metadata === undefined ? null : JSON.stringify(filter.metadata),
      afterId: filter.afterId ?? null,
      limit: take,
    });
    return rows.map(recordOf);
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
    const rows = await this.db.query(BALANCES_AS_OF, {
      tenantId,
      asOf,
      accountId: scope.accountId ?? null,
      limit: scope.limit,
    });
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
    const rows = await this.db.query(ACCOUNT_KEYS_AFTER, { afterTenantId: after.tenantId, afterId: after.id, limit });
    return rows.map((row) => ({ tenantId: row.tenant_id, id: row.id }));
  }

  async takeSnapshots(asOf: Date, accounts: readonly { tenantId: string; id: string }[]): Promise<number> {
    const rows = await this.db.query(TAKE_SNAPSHOTS, {
      asOf,
      tenantIds: accounts.map((account) => account.tenantId),
      accountIds: accounts.map((account) => account.id),
    });
    return Number(rows[0]!.count);
  }
}
