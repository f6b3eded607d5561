import { DomainError } from '@ledger/errors';
import { type AccountTotals, type Side, balancesOf, signedAmount } from './balances';
import type { DraftLeg } from './transaction-draft';

/** An account as read under its row lock. */
export interface LockedAccount extends AccountTotals {
  id: string;
  code: string;
  currency: string;
  allowNegative: boolean;
  version: bigint;
}

export interface PlannedEntry {
  leg: number;
  accountId: string;
  accountCode: string;
  direction: Side;
  amountMinor: bigint;
  currency: string;
  accountVersion: bigint;
  postedBalanceAfter: bigint;
}

export interface AccountDelta {
  accountId: string;
  debitMinor: bigint;
  creditMinor: bigint;
}

export interface PostingPlan {
  entries: PlannedEntry[];
  deltas: AccountDelta[];
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(text: string): boolean {
  return UUID_PATTERN.test(text);
}

function resolveLegs(legs: readonly DraftLeg[], accounts: readonly LockedAccount[]): LockedAccount[] {
  const byRef = new Map<string, LockedAccount>();
  for (const account of accounts) {
    byRef.set(account.id, account);
    byRef.set(account.code, account);
  }
  const missing = legs.filter((leg) => !byRef.has(isUuid(leg.account) ? leg.account.toLowerCase() : leg.account));
  if (missing.length > 0) {
    throw new DomainError('ACCOUNT_NOT_FOUND', `unknown account ${missing[0]!.account}`, {
      accounts: missing.map((leg) => leg.account),
    });
  }
  const resolved = legs.map((leg) => byRef.get(isUuid(leg.account) ? leg.account.toLowerCase() : leg.account)!);
  if (new Set(resolved.map((account) => account.id)).size !== resolved.length) {
    throw new DomainError('VALIDATION_FAILED', 'an account may appear in only one leg of a transaction', {
      fields: [{ path: 'entries', message: 'the same account is named twice (by id and by code)' }],
    });
  }
  return resolved;
}

/**
 * Works out, for accounts already locked, every entry's resulting balance and each account's new
 * totals, refusing the whole transaction if any leg is in the wrong currency or would take an
 * account that may not go negative below zero.
 */
export function planPosting(legs: readonly DraftLeg[], accounts: readonly LockedAccount[]): PostingPlan {
  const resolved = resolveLegs(legs, accounts);
  const entries: PlannedEntry[] = [];
  const deltas: AccountDelta[] = [];
  for (const [index, leg] of legs.entries()) {
    const account = resolved[index]!;
    if (account.currency !== leg.currency) {
      throw new DomainError('CURRENCY_MISMATCH', `account ${account.code} holds ${account.currency}, not ${leg.currency}`, {
        leg: index,
        account: account.code,
        accountCurrency: account.currency,
        entryCurrency: leg.currency,
      });
    }
    const change = signedAmount(account.normalBalance, leg.direction, leg.amountMinor);
    const before = balancesOf(account);
    const postedBalanceAfter = before.posted + change;
    if (!account.allowNegative && before.available + change < 0n) {
      throw new DomainError('INSUFFICIENT_FUNDS', `account ${account.code} has ${before.available} available, needs ${-change}`, {
        account: account.code,
        availableMinor: before.available.toString(),
        requiredMinor: (-change).toString(),
        currency: account.currency,
      });
    }
    const debitMinor = leg.direction === 'debit' ? leg.amountMinor : 0n;
    const creditMinor = leg.direction === 'credit' ? leg.amountMinor : 0n;
    deltas.push({ accountId: account.id, debitMinor, creditMinor });
    entries.push({
      leg: index,
      accountId: account.id,
      accountCode: account.code,
      direction: leg.direction,
      amountMinor: leg.amountMinor,
      currency: leg.currency,
      accountVersion: account.version + 1n,
      postedBalanceAfter,
    });
  }
  return { entries, deltas };
}
