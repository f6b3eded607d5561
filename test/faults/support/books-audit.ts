import { expect } from 'vitest';
import {
  ACCOUNTS_DISAGREEING_WITH_ENTRIES,
  ACKNOWLEDGED_FOUND,
  HALF_TRANSACTIONS,
  ORPHANS,
  TRIAL_BALANCE,
  UNACKNOWLEDGED_TRANSACTIONS,
  UNBALANCED_TRANSACTIONS,
} from './books-audit.sql';
import type { LedgerStack } from './ledger-stack';

export interface BooksAudit {
  acknowledged: number;
  found: number;
  /** Transactions in the database that neither a client nor the setup was told of. */
  unacknowledgedInDatabase: unknown[];
  unbalancedTransactions: unknown[];
  halfTransactions: unknown[];
  orphans: unknown[];
  trialBalance: Record<string, string>;
  accountsDisagreeingWithEntries: unknown[];
  journalVerify: { exitCode: number | null; output: string };
}

/**
 * The books after the faults: every acknowledged transaction there, nothing else, nothing half
 * written, the trial balance zero, account totals equal to their entries, and `ledger journal verify`
 * (the built CLI) content with every hash chain.
 */
export async function auditBooks(
  stack: LedgerStack,
  tenantId: string,
  acknowledgedIds: readonly string[],
  setupIds: readonly string[],
): Promise<BooksAudit> {
  const known = [...acknowledgedIds, ...setupIds];
  const [{ found }] = (await stack.sql<{ found: number }>(ACKNOWLEDGED_FOUND, [tenantId, acknowledgedIds])) as [
    { found: number },
  ];
  const trialBalance = await stack.sql<{ currency: string; net_minor: string }>(TRIAL_BALANCE, [tenantId]);
  const verify = await stack.runCli(['journal', 'verify', '--tenant', tenantId]);
  return {
    acknowledged: acknowledgedIds.length,
    found,
    unacknowledgedInDatabase: await stack.sql(UNACKNOWLEDGED_TRANSACTIONS, [tenantId, known]),
    unbalancedTransactions: await stack.sql(UNBALANCED_TRANSACTIONS, [tenantId]),
    halfTransactions: await stack.sql(HALF_TRANSACTIONS, [tenantId]),
    orphans: await stack.sql(ORPHANS, [tenantId]),
    trialBalance: Object.fromEntries(trialBalance.map((row) => [row.currency, row.net_minor])),
    accountsDisagreeingWithEntries: await stack.sql(ACCOUNTS_DISAGREEING_WITH_ENTRIES, [tenantId]),
    journalVerify: { exitCode: verify.code, output: verify.output.trim() },
  };
}

/**
 * The books after a fault test: every acknowledged transaction once, nothing else, nothing by half, the
 * journal whole; the trial balance zero in each of `currencies` (the ones the test moved).
 */
export function expectBooksWhole(books: BooksAudit, currencies: readonly string[] = ['USD']): void {
  expect(books.found, 'every acknowledged transaction is in the database').toBe(books.acknowledged);
  expect(books.unacknowledgedInDatabase, 'nothing was written that no client was told of').toEqual([]);
  expect(books.unbalancedTransactions).toEqual([]);
  expect(books.halfTransactions).toEqual([]);
  expect(books.orphans).toEqual([]);
  expect(books.accountsDisagreeingWithEntries).toEqual([]);
  expect(books.trialBalance).toEqual(Object.fromEntries(currencies.map((currency) => [currency, '0'])));
  expect(books.journalVerify.exitCode, books.journalVerify.output).toBe(0);
}
