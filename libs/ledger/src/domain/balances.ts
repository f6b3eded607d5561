export type Side = 'debit' | 'credit';

/** The running totals an account keeps, all non-negative minor units. */
export interface AccountTotals {
  normalBalance: Side;
  postedDebits: bigint;
  postedCredits: bigint;
  pendingDebits: bigint;
  pendingCredits: bigint;
}

export interface Balances {
  posted: bigint;
  pending: bigint;
  available: bigint;
}

/**
 * credits - debits for a credit-normal account, debits - credits for a debit-normal one.
 * `pending` is the reserved outflow (debits of a credit-normal account, credits of a debit-normal one),
 * and `available = posted - pending`.
 */
export function balancesOf(totals: AccountTotals): Balances {
  const creditNormal = totals.normalBalance === 'credit';
  const posted = creditNormal ? totals.postedCredits - totals.postedDebits : totals.postedDebits - totals.postedCredits;
  const pending = creditNormal ? totals.pendingDebits : totals.pendingCredits;
  return { posted, pending, available: posted - pending };
}

/** The signed effect of one entry on the posted balance of an account with this normal side. */
export function signedAmount(normalBalance: Side, direction: Side, amountMinor: bigint): bigint {
  return direction === normalBalance ? amountMinor : -amountMinor;
}
