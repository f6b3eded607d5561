import { currencyCode, toMinor } from '../amounts';
import { calendarDate, daysInMonth } from '@ledger/calendar';
import type { StatementBalance } from '../statement-items';
import { shown } from '../text-input';

/** SWIFT allows 15 characters; Rabobank pads with zeros to 16. Longer is not an MT940 amount. */
export const MT940_AMOUNT_CHARS_MAX = 24;
/** :61: subfields: customer reference 16x, bank reference 16x (longer text is kept as supplementary detail). */
const REFERENCE_CHARS_MAX = 16;

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

const BALANCE_PATTERN = /^([CD])(\d{6})([A-Z]{3})([0-9][0-9.,]*)$/;
// value date, entry date (four spaces where a bank leaves it blank), mark (RC/RD before C/D), funds code,
// amount, transaction type, the rest.
const STATEMENT_LINE_PATTERN = /^(\d{6})(\d{4}| {4})?(RC|RD|C|D)([A-Z])?([0-9][0-9.,]*)([NFS][A-Z0-9]{3})(.*)$/;
const AMOUNT_PATTERN = /^\d+,\d*$/;
// Some Dutch banks leave the decimal comma out of a :61: amount when it is whole ("C500NTRF" is 500,00).
const WHOLE_AMOUNT_PATTERN = /^\d+$/;

// Two-digit SWIFT years: 80-99 are 1980-1999, 00-79 are 2000-2079.
function fullYear(twoDigits: number): number {
  return twoDigits >= 80 ? 1900 + twoDigits : 2000 + twoDigits;
}

/**
 * YYMMDD. With thirtyDayFebruary, February 29/30 that do not exist are read as the last day of February:
 * German banks value-date their period-end settlements on "30 February" (30/360 interest convention), which
 * is what wolph's february_30.sta sample shows. Any other impossible date is refused.
 */
export function mt940Date(text: string, thirtyDayFebruary: boolean): string | null {
  const year = fullYear(Number(text.slice(0, 2)));
  const month = Number(text.slice(2, 4));
  const day = Number(text.slice(4, 6));
  const date = calendarDate(year, month, day);
  if (date !== null || !thirtyDayFebruary || month !== 2 || day > 30) return date;
  return calendarDate(year, 2, daysInMonth(year, 2));
}

function dayNumber(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / 86_400_000;
}

/** The :61: entry date has no year: take the one closest to the value date (Dec value, Jan entry = next year). */
function entryDate(monthDay: string, valueOn: string): string | null {
  const valueYear = Number(valueOn.slice(0, 4));
  const month = Number(monthDay.slice(0, 2));
  const day = Number(monthDay.slice(2, 4));
  const candidates = [valueYear - 1, valueYear, valueYear + 1]
    .map((year) => calendarDate(year, month, day))
    .filter((date): date is string => date !== null);
  if (candidates.length === 0) return null;
  const distance = (date: string): number => Math.abs(dayNumber(date) - dayNumber(valueOn));
  return candidates.reduce((best, date) => (distance(date) < distance(best) ? date : best));
}

export function mt940Amount(text: string, currency: string, wholeWithoutComma = false): Parsed<bigint> {
  const whole = wholeWithoutComma && WHOLE_AMOUNT_PATTERN.test(text);
  if (text.length > MT940_AMOUNT_CHARS_MAX || !(whole || AMOUNT_PATTERN.test(text))) {
    return { ok: false, reason: `amount ${shown(text)} is not an MT940 amount (digits with a decimal comma)` };
  }
  // "100," is a whole amount in MT940; libs/money wants a digit after the separator.
  const decimal = whole ? `${text},0` : text.endsWith(',') ? `${text}0` : text;
  const amount = toMinor(decimal, currency, { decimalSeparator: ',' });
  return amount.ok ? amount : { ok: false, reason: amount.reason };
}

/** :60F: :60M: :62F: :62M: :64: :65: — D/C, YYMMDD, currency, amount. */
export function parseBalance(value: string): Parsed<StatementBalance> {
  const match = BALANCE_PATTERN.exec(value.trim());
  if (match === null) return { ok: false, reason: `balance ${shown(value)} is not C|D YYMMDD currency amount` };
  const [, mark, dateText, currencyText, amountText] = match;
  const date = mt940Date(dateText, false);
  if (date === null) return { ok: false, reason: `balance date ${shown(dateText)} is not a valid YYMMDD date` };
  const currency = currencyCode(currencyText);
  if (!currency.ok) return currency;
  const amount = mt940Amount(amountText, currency.value);
  if (!amount.ok) return amount;
  return {
    ok: true,
    value: { amountMinor: mark === 'D' ? -amount.value : amount.value, currency: currency.value, date },
  };
}

export interface Mt940Movement {
  valueOn: string;
  bookedOn: string;
  amountMinor: bigint;
  reversal: boolean;
  typeCode: string;
  customerReference?: string;
  bankReference?: string;
  supplementary?: string;
}

function references(rest: string): Pick<Mt940Movement, 'customerReference' | 'bankReference' | 'supplementary'> {
  const separator = rest.indexOf('//');
  let customer = separator === -1 ? rest : rest.slice(0, separator);
  let bank = separator === -1 ? undefined : rest.slice(separator + 2);
  const extra: string[] = [];
  // Some banks (Rabobank) write the counterparty after a padded reference on the same line.
  if (customer.length > REFERENCE_CHARS_MAX) {
    extra.push(customer.slice(REFERENCE_CHARS_MAX).trim());
    customer = customer.slice(0, REFERENCE_CHARS_MAX);
  }
  if (bank !== undefined && bank.length > REFERENCE_CHARS_MAX) {
    extra.push(bank.slice(REFERENCE_CHARS_MAX).trim());
    bank = bank.slice(0, REFERENCE_CHARS_MAX);
  }
  customer = customer.trim();
  bank = bank?.trim();
  const supplementary = extra.filter((part) => part !== '').join(' ');
  return {
    customerReference: customer === '' || customer === 'NONREF' ? undefined : customer,
    bankReference: bank === '' || bank === 'NONREF' ? undefined : bank,
    supplementary: supplementary === '' ? undefined : supplementary,
  };
}

/**
 * :61: value date, [entry date], D|C|RD|RC, [funds code], amount, type, customer ref, [//bank ref].
 * The funds code is the third letter of the currency (DD212,39 is a debit of 212,39 in funds code D).
 * RC is the reversal of a credit, so it takes money out (negative); RD puts money back (positive).
 */
export function parseStatementLine(value: string, currency: string): Parsed<Mt940Movement> {
  const match = STATEMENT_LINE_PATTERN.exec(value);
  if (match === null) {
    return {
      ok: false,
      reason: `statement line ${shown(value)} is not YYMMDD[MMDD]C|D|RC|RD[funds code]amount type reference`,
    };
  }
  const [, valueText, entryText, mark, , amountText, typeCode, rest] = match;
  const valueOn = mt940Date(valueText, true);
  if (valueOn === null) return { ok: false, reason: `value date ${shown(valueText)} is not a valid YYMMDD date` };
  const bookedOn = entryText === undefined || entryText === '    ' ? valueOn : entryDate(entryText, valueOn);
  if (bookedOn === null) return { ok: false, reason: `entry date ${shown(entryText ?? '')} is not a valid MMDD date` };
  const amount = mt940Amount(amountText, currency, true);
  if (!amount.ok) return amount;
  const incoming = mark === 'C' || mark === 'RD';
  return {
    ok: true,
    value: {
      valueOn,
      bookedOn,
      amountMinor: incoming ? amount.value : -amount.value,
      reversal: mark === 'RC' || mark === 'RD',
      typeCode,
      ...references(rest),
    },
  };
}
