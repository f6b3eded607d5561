import assert from 'node:assert/strict';
import { formatMoney } from '@ledger/money';
import { isInterimFormat } from './parse';
import type { StatementHeader, StatementLine } from './statement-items';

export interface BalanceCheck {
  /** opening + sum(lines) == closing, all in one currency. */
  ok: boolean;
  /** opening + sum(lines): what the closing balance should be; null when it cannot be computed. */
  expectedClosingMinor: bigint | null;
  /** The closing balance the statement states; null when it has none. */
  actualClosingMinor: bigint | null;
  /** Set when ok is false: why, in words. */
  reason?: string;
}

export type LineAmount = Pick<StatementLine, 'statementIndex' | 'amountMinor' | 'currency'>;

/**
 * Balance continuity of one statement. A statement that fails it is still valid input (it is what the bank
 * sent): the import stores it with a warning and the reconciler tickets it. A streaming caller that did not
 * keep the lines can pass running totals instead, one per currency, as LineAmount values.
 */
export function balanceCheck(statement: StatementHeader, lines: Iterable<LineAmount>): BalanceCheck {
  const { openingBalance: opening, closingBalance: closing } = statement;
  const sums = new Map<string, bigint>();
  for (const line of lines) {
    assert.equal(line.statementIndex, statement.statementIndex, 'balanceCheck was given a line of another statement');
    sums.set(line.currency, (sums.get(line.currency) ?? 0n) + line.amountMinor);
  }
  const actualClosingMinor = closing?.amountMinor ?? null;
  if (opening === null || closing === null) {
    const missing =
      opening === null && closing === null
        ? 'opening and closing balances'
        : opening === null
          ? 'an opening balance'
          : 'a closing balance';
    return { ok: false, expectedClosingMinor: null, actualClosingMinor, reason: `the statement has no ${missing}` };
  }
  const foreign = [...sums.keys()].filter((currency) => currency !== opening.currency);
  if (closing.currency !== opening.currency || foreign.length > 0) {
    const currencies = [...new Set([opening.currency, closing.currency, ...foreign])].join(', ');
    return {
      ok: false,
      expectedClosingMinor: null,
      actualClosingMinor,
      reason: `balances and lines mix currencies (${currencies})`,
    };
  }
  const expectedClosingMinor = opening.amountMinor + (sums.get(opening.currency) ?? 0n);
  if (expectedClosingMinor === actualClosingMinor) return { ok: true, expectedClosingMinor, actualClosingMinor };
  return {
    ok: false,
    expectedClosingMinor,
    actualClosingMinor,
    reason:
      `opening ${formatMoney(opening.amountMinor, opening.currency)} + lines ` +
      `${formatMoney(expectedClosingMinor - opening.amountMinor, opening.currency)} ` +
      `= ${formatMoney(expectedClosingMinor, opening.currency)}, but the closing balance is ` +
      formatMoney(closing.amountMinor, opening.currency),
  };
}

/**
 * What the import reports about a statement's balances: why they do not add up, or what is missing;
 * nothing when they add up, and nothing for an interim report, which has no balances to check.
 */
export function balanceProblem(statement: StatementHeader, lines: Iterable<LineAmount>): string | undefined {
  const check = balanceCheck(statement, lines);
  if (check.ok) return undefined;
  const unbalanced = statement.openingBalance === null && statement.closingBalance === null;
  return unbalanced && isInterimFormat(statement.format) ? undefined : check.reason;
}
