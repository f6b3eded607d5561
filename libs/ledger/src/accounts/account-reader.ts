import { Injectable } from '@nestjs/common';
import { type AccountSummary, AccountReadsRepository, type EntrySummary } from './account-reads.repository';
import { AccountRepository } from './account.repository';

/**
 * How other libs read the ledger's accounts and entries (statement sources name an account, matches
 * name entries): by key, never by joining the ledger's tables into their own statements.
 */
@Injectable()
export class AccountReader {
  constructor(
    private readonly reads: AccountReadsRepository,
    private readonly accounts: AccountRepository,
  ) {}

  /** An account by code or id, found as the ledger's own routes find it. */
  async findByRef(tenantId: string, ref: string): Promise<AccountSummary | undefined> {
    const account = await this.accounts.findByRef(tenantId, ref);
    if (account === undefined) return undefined;
    return { id: account.id, code: account.code, currency: account.currency, normalBalance: account.normalBalance };
  }

  /** The named accounts, by id; ids of no account of the tenant are left out. */
  async findByIds(tenantId: string, ids: readonly string[]): Promise<Map<string, AccountSummary>> {
    const accounts = await this.reads.findByIds(tenantId, [...new Set(ids)]);
    return new Map(accounts.map((account) => [account.id, account]));
  }

  /** The posted entries of the named transactions on one account, by transaction and leg. */
  postedEntriesOn(tenantId: string, accountId: string, transactionIds: readonly string[]): Promise<EntrySummary[]> {
    return this.reads.postedEntriesOn(tenantId, accountId, [...new Set(transactionIds)]);
  }

  /** The entries of the named transactions, keyed `transactionId:leg`. */
  async entriesOf(tenantId: string, transactionIds: readonly string[]): Promise<Map<string, EntrySummary>> {
    const entries = await this.reads.entriesOf(tenantId, [...new Set(transactionIds)]);
    return new Map(entries.map((entry) => [`${entry.transactionId}:${entry.leg}`, entry]));
  }
}
