import { Injectable } from '@nestjs/common';
import { Database, type Prisma } from '@ledger/db';
import type { Side } from '../domain/balances';

/** What another lib needs to know of an account: which it is, its currency and its normal side. */
export interface AccountSummary {
  id: string;
  code: string;
  currency: string;
  normalBalance: Side;
}

/** One leg of a transaction on an account, as another lib shows it beside its own rows. */
export interface EntrySummary {
  transactionId: string;
  leg: number;
  accountId: string;
  direction: Side;
  amountMinor: bigint;
  currency: string;
  pending: boolean;
}

const ACCOUNT_SUMMARY = { id: true, code: true, currency: true, normalBalance: true } as const;
const ENTRY_SUMMARY = {
  transactionId: true,
  leg: true,
  accountId: true,
  direction: true,
  amountMinor: true,
  currency: true,
  pending: true,
} as const;

/** The reads behind AccountReader: small lookups by key, nothing that scans a tenant's books. */
@Injectable()
export class AccountReadsRepository {
  constructor(private readonly db: Database) {}

  async findByIds(tenantId: string, ids: readonly string[]): Promise<AccountSummary[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.prisma.account.findMany({
      where: { tenantId, id: { in: [...ids] } },
      select: ACCOUNT_SUMMARY,
    });
    return rows.map((row) => ({ ...row, normalBalance: row.normalBalance as Side }));
  }

  /** Every entry of the named transactions (a transaction has at most LEGS_PER_TRANSACTION_MAX). */
  async entriesOf(tenantId: string, transactionIds: readonly string[]): Promise<EntrySummary[]> {
    return this.entries({ tenantId, transactionId: { in: [...transactionIds] } });
  }

  /** The posted entries of the named transactions on one account. */
  async postedEntriesOn(
    tenantId: string,
    accountId: string,
    transactionIds: readonly string[],
  ): Promise<EntrySummary[]> {
    return this.entries({ tenantId, accountId, pending: false, transactionId: { in: [...transactionIds] } });
  }

  private async entries(where: Prisma.EntryWhereInput & { transactionId: { in: string[] } }) {
    if (where.transactionId.in.length === 0) return [];
    const rows = await this.db.prisma.entry.findMany({
      where,
      select: ENTRY_SUMMARY,
      orderBy: [{ transactionId: 'asc' }, { leg: 'asc' }],
    });
    return rows.map((row) => ({ ...row, direction: row.direction as Side }));
  }
}
