import { currencyCode } from '../amounts';
import type { LineDraft } from '../line-builder';
import type { StatementBalance, StatementHeader } from '../statement-items';
import {
  bai2Amount,
  bai2Count,
  bai2TypeCode,
  type Bai2Direction,
  detailDirection,
  readAvailability,
} from './bai2-fields';
import { type Bai2Record, FieldCursor } from './bai2-records';

/** Summary and status entries of one 03 record (its 88s included); banks send a few dozen at most. */
export const BAI2_SUMMARIES_PER_ACCOUNT_MAX = 500;

/** Status type codes that are the statement's balances: opening and closing ledger. */
const OPENING_LEDGER = '010';
const CLOSING_LEDGER = '015';

export interface GroupContext {
  /** The as-of date of the group (02): the booking date of its lines and the date of its balances. */
  asOf: string;
  /** The group's currency, USD when the 02 leaves it blank (the BAI2 default). */
  currency: string;
}

export interface AccountIdentifier {
  accountId: string;
  currency: string;
  opening: StatementBalance | null;
  closing: StatementBalance | null;
  /** The algebraic sum of the record's amounts, for the account control total. */
  amountsMinor: bigint;
}

/** A record read, or why not and on which of its physical lines (a 03's bad amount may be in its 88). */
export type Read<T> = { ok: true; value: T } | { ok: false; reason: string; lineNumber: number };

const failedAt = (record: Bai2Record, cursor: FieldCursor, reason: string): Read<never> => ({
  ok: false,
  reason,
  lineNumber: record.lineNumbers[cursor.fieldPiece],
});

/**
 * 03: account number, currency (the group's when blank), then summary and status entries of type code,
 * amount, item count and funds type (with its fields). 010 is the opening ledger balance and 015 the closing
 * ledger balance; the other entries (available balances, totals) are checked and counted in the control
 * total, not kept.
 */
export function readAccountIdentifier(record: Bai2Record, group: GroupContext): Read<AccountIdentifier> {
  const cursor = new FieldCursor(record.pieces);
  const accountId = cursor.next().trim();
  if (accountId === '') return failedAt(record, cursor, 'account identifier (03) has no account number');
  const currencyText = cursor.next().trim();
  const currency = currencyText === '' ? { ok: true as const, value: group.currency } : currencyCode(currencyText);
  if (!currency.ok) return failedAt(record, cursor, currency.reason);
  const account: AccountIdentifier = {
    accountId,
    currency: currency.value,
    opening: null,
    closing: null,
    amountsMinor: 0n,
  };
  for (let summaries = 0; cursor.hasMore(); summaries += 1) {
    const codeText = cursor.next();
    // A "," before the closing "/" leaves one blank field after the last entry (some banks write ",,/").
    if (codeText === '' && cursor.restIsBlank()) break;
    if (summaries >= BAI2_SUMMARIES_PER_ACCOUNT_MAX)
      return failedAt(
        record,
        cursor,
        `account identifier (03) has more than ${BAI2_SUMMARIES_PER_ACCOUNT_MAX} summary entries`,
      );
    const code = bai2TypeCode(codeText);
    if (!code.ok) return failedAt(record, cursor, code.reason);
    const amount = bai2Amount(cursor.next(), `amount of type code ${code.value}`, true);
    if (!amount.ok) return failedAt(record, cursor, amount.reason);
    const count = bai2Count(cursor.next(), `item count of type code ${code.value}`);
    if (!count.ok) return failedAt(record, cursor, count.reason);
    const availability = readAvailability(cursor);
    if (!availability.ok) return failedAt(record, cursor, availability.reason);
    if (amount.value === null) continue;
    account.amountsMinor += amount.value;
    const balance = { amountMinor: amount.value, currency: account.currency, date: group.asOf };
    if (code.value === OPENING_LEDGER) account.opening = balance;
    if (code.value === CLOSING_LEDGER) account.closing = balance;
  }
  return { ok: true, value: account };
}

/** The statement item of a closed account: the 01's file id names the report it came in. */
export function accountStatement(
  identifier: AccountIdentifier,
  statement: { index: number; lineNumber: number; fileId: string | null | undefined },
  lineCount: number,
  warnings: string[],
): StatementHeader {
  return {
    kind: 'statement',
    format: 'bai2',
    statementIndex: statement.index,
    lineNumber: statement.lineNumber,
    accountId: identifier.accountId,
    statementId: statement.fileId ?? null,
    sequenceNumber: null,
    electronicSequenceNumber: null,
    currency: identifier.currency,
    openingBalance: identifier.opening,
    closingBalance: identifier.closing,
    lineCount,
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

export interface Detail {
  direction: Bai2Direction;
  /** Unsigned, as written: counted in the control total whatever the direction. */
  amountMinor: bigint;
  /** The line, unless the type code is informational. */
  draft: LineDraft | null;
  bankReference: string;
}

/**
 * 16: type code, amount, funds type (with its fields), bank reference, customer reference, then the text,
 * which is the rest of the record. The line is booked on the group's as-of date; funds type V gives its
 * value date.
 */
export function readDetail(record: Bai2Record, account: { currency: string }, group: GroupContext): Read<Detail> {
  const cursor = new FieldCursor(record.pieces);
  const code = bai2TypeCode(cursor.next());
  if (!code.ok) return failedAt(record, cursor, code.reason);
  const direction = detailDirection(code.value);
  if (!direction.ok) return failedAt(record, cursor, direction.reason);
  const amount = bai2Amount(cursor.next(), 'amount', false);
  if (!amount.ok) return failedAt(record, cursor, amount.reason);
  if (amount.value === null) return failedAt(record, cursor, 'transaction detail (16) has no amount');
  const availability = readAvailability(cursor);
  if (!availability.ok) return failedAt(record, cursor, availability.reason);
  const bankReference = cursor.next().trim();
  const customerReference = cursor.next().trim();
  const text = cursor.text();
  const detail: Detail = { direction: direction.value, amountMinor: amount.value, draft: null, bankReference };
  if (direction.value === 'informational') return { ok: true, value: detail };
  detail.draft = {
    lineNumber: record.lineNumber,
    bookedOn: group.asOf,
    valueOn: availability.value.valueOn,
    amountMinor: direction.value === 'credit' ? amount.value : -amount.value,
    currency: account.currency,
    reversal: false,
    references: { bankReference, customerReference },
    typeCode: code.value,
    description: text,
    raw: record.lines.join('\n'),
  };
  return { ok: true, value: detail };
}
