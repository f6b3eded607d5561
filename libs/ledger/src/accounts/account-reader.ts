import { Injectable } from '@nestjs/common';
import { type AccountSummary, AccountReadsRepository, type EntrySummary } from './account-reads.repository';

/**
 * How other libs read the ledger's accounts and entries (statement sources name an account, matches
 * name entries): by key, never by joining the ledger's tables into their own statements.
 */
@Injectable()
export class AccountReader {
  constructor(private readonly reads: AccountReadsRepository) {}

  /** An account by code or id. */
  findByRef(tenantId: string, ref: string): Promise<AccountSummary | undefined> {
    return this.reads.findByRef(tenantId, ref);
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
