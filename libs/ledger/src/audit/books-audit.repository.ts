import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import {
  type BooksAuditRow,
  CACHED_BALANCES,
  NEGATIVE_ACCOUNTS,
  STALE_HOLDS,
  TRIAL_BALANCE,
  UNBALANCED_TRANSACTIONS,
} from './books-audit.sql';

/**
 * The ledger's invariants checked over a tenant's whole books, one set-based read each, for whoever
 * audits them (the reconciliation run turns the rows into tickets). Runs in the caller's transaction
 * when there is one, so that a run's checks can share one snapshot.
 */
@Injectable()
export class BooksAuditRepository {
  constructor(private readonly db: Database) {}

  /** Transactions whose entries do not sum to zero in a currency. */
  unbalancedTransactions(tenantId: string, limit: number): Promise<BooksAuditRow[]> {
    return this.db.query(UNBALANCED_TRANSACTIONS, { tenantId, limit });
  }

  /** Currencies whose posted entries do not sum to zero. */
  trialBalance(tenantId: string, limit: number): Promise<BooksAuditRow[]> {
    return this.db.query(TRIAL_BALANCE, { tenantId, limit });
  }

  /** Accounts whose cached totals are not the sums of their entries. */
  cachedBalances(tenantId: string, limit: number): Promise<BooksAuditRow[]> {
    return this.db.query(CACHED_BALANCES, { tenantId, limit });
  }

  /** Accounts that may not go negative and have a negative available balance. */
  negativeAccounts(tenantId: string, limit: number): Promise<BooksAuditRow[]> {
    return this.db.query(NEGATIVE_ACCOUNTS, { tenantId, limit });
  }

  /** Holds still open longer than `graceSeconds` after their expiry. */
  staleHolds(tenantId: string, graceSeconds: number, limit: number): Promise<BooksAuditRow[]> {
    return this.db.query(STALE_HOLDS, { tenantId, graceSeconds, limit });
  }
}
