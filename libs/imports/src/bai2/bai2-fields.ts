import { calendarDate } from '@ledger/calendar';
import { shown } from '../text-input';
import type { FieldCursor } from './bai2-records';

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Minor units that fit PostgreSQL's int8 whatever their sign: 18 digits. */
export const BAI2_AMOUNT_DIGITS_MAX = 18;
/** Distributions of one funds type D (days, amount pairs); the standard sets no bound, banks send a few. */
export const BAI2_DISTRIBUTIONS_MAX = 100;

const UNSIGNED_AMOUNT = new RegExp(`^\\d{1,${BAI2_AMOUNT_DIGITS_MAX}}$`);
const SIGNED_AMOUNT = new RegExp(`^[+-]?\\d{1,${BAI2_AMOUNT_DIGITS_MAX}}$`);
const DATE = /^\d{6}$/;
const COUNT = /^\d{1,9}$/;
const TYPE_CODE = /^\d{3}$/;

const failed = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

/**
 * A BAI2 amount: whole minor units with the decimals implied by the currency ("36521" GBP is 365.21), so the
 * digits are the minor units whatever the currency. A decimal point or any other character cannot be read
 * exactly and is refused. Blank is null: the field is not reported. Balances, summaries and control totals
 * may carry a sign; a 16's amount is unsigned (its type code gives the direction).
 */
export function bai2Amount(text: string, label: string, signed: boolean): Parsed<bigint | null> {
  if (text === '') return { ok: true, value: null };
  if ((signed ? SIGNED_AMOUNT : UNSIGNED_AMOUNT).test(text)) return { ok: true, value: BigInt(text) };
  const shape = signed ? 'an optional sign and' : 'only';
  return failed(
    `${label} ${shown(text)} is not a BAI2 amount (${shape} up to ${BAI2_AMOUNT_DIGITS_MAX} digits of minor units)`,
  );
}

/** A count of items or records; blank is null. */
export function bai2Count(text: string, label: string): Parsed<number | null> {
  if (text === '') return { ok: true, value: null };
  if (COUNT.test(text)) return { ok: true, value: Number(text) };
  return failed(`${label} ${shown(text)} is not a number`);
}

// Two-digit years, as in SWIFT: 80-99 are 1980-1999, 00-79 are 2000-2079.
function fullYear(twoDigits: number): number {
  return twoDigits >= 80 ? 1900 + twoDigits : 2000 + twoDigits;
}

/** YYMMDD as 'YYYY-MM-DD'. */
export function bai2Date(text: string, label: string): Parsed<string> {
  const date = DATE.test(text)
    ? calendarDate(fullYear(Number(text.slice(0, 2))), Number(text.slice(2, 4)), Number(text.slice(4, 6)))
    : null;
  return date === null ? failed(`${label} ${shown(text)} is not a valid YYMMDD date`) : { ok: true, value: date };
}

export function bai2TypeCode(text: string): Parsed<string> {
  return TYPE_CODE.test(text) ? { ok: true, value: text } : failed(`type code ${shown(text)} is not three digits`);
}

export interface Availability {
  fundsType: string;
  /** The value date of funds type V. */
  valueOn: string | null;
}

function distributedAmounts(cursor: FieldCursor, count: number, withDays: boolean): string | null {
  for (let index = 0; index < count; index += 1) {
    if (withDays) {
      const days = bai2Count(cursor.next(), 'availability days');
      if (!days.ok) return days.reason;
    }
    const amount = bai2Amount(cursor.next(), 'availability amount', true);
    if (!amount.ok) return amount.reason;
  }
  return null;
}

/**
 * The funds type and the fields it brings: 0, 1, 2 (available immediately, in one day, in two or more), Z
 * (unknown) and blank have none; S three amounts (immediate, one-day, two-or-more days); V a value date
 * (YYMMDD) and time; D a number of distributions, then that many days and amount pairs. Only V's date is
 * kept; the others are checked, so that a field out of place is found rather than read as the next one.
 */
export function readAvailability(cursor: FieldCursor): Parsed<Availability> {
  const fundsType = cursor.next();
  switch (fundsType) {
    case '':
    case '0':
    case '1':
    case '2':
    case 'Z':
      return { ok: true, value: { fundsType, valueOn: null } };
    case 'S': {
      const problem = distributedAmounts(cursor, 3, false);
      return problem === null ? { ok: true, value: { fundsType, valueOn: null } } : failed(problem);
    }
    case 'V': {
      const date = bai2Date(cursor.next(), 'value date');
      const time = cursor.next();
      if (!date.ok) return date;
      if (time !== '' && !/^\d{4}$/.test(time)) return failed(`value time ${shown(time)} is not HHMM`);
      return { ok: true, value: { fundsType, valueOn: date.value } };
    }
    case 'D': {
      const count = bai2Count(cursor.next(), 'number of distributions');
      if (!count.ok) return count;
      if ((count.value ?? 0) > BAI2_DISTRIBUTIONS_MAX)
        return failed(`funds type D has ${count.value} distributions, more than ${BAI2_DISTRIBUTIONS_MAX}`);
      const problem = distributedAmounts(cursor, count.value ?? 0, true);
      return problem === null ? { ok: true, value: { fundsType, valueOn: null } } : failed(problem);
    }
    default:
      return failed(`funds type ${shown(fundsType)} is not one of 0, 1, 2, S, V, D, Z`);
  }
}

export type Bai2Direction = 'credit' | 'debit' | 'informational';

/**
 * Credit or debit of a transaction detail (16), from its type code, as the BAI2 specification's type code
 * table divides them: 100-399 credits (100 is total credits), 400-699 debits (400 is total debits), and
 * 900-999 bank-defined codes. The 900s are read as informational and not imported as lines: each bank
 * assigns its own, and the sources disagree on how they split into status, credit and debit codes (BAI's
 * own FAQ says 900-929 / 930-959 / 960-999, others 900-919 / 920-959 / 960-999), so a direction read from
 * one would be a guess. A 16 with a status code (001-099), a loan code (700-799) or an unassigned one
 * (000, 800-899) has no direction that can be known: a line error.
 */
export function detailDirection(typeCode: string): Parsed<Bai2Direction> {
  const code = Number(typeCode);
  if (code >= 100 && code <= 399) return { ok: true, value: 'credit' };
  if (code >= 400 && code <= 699) return { ok: true, value: 'debit' };
  if (code >= 900) return { ok: true, value: 'informational' };
  const kind =
    code >= 1 && code <= 99 ? 'an account status code' : 'neither a credit (100-399) nor a debit (400-699) code';
  return failed(`type code ${typeCode} of a transaction detail (16) is ${kind}; its direction cannot be known`);
}
