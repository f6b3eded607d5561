import { currencyCode } from '../amounts';
import { calendarDate } from '@ledger/calendar';
import { shown } from '../text-input';
import { mt940Amount, type Parsed } from './mt940-fields';

// The fields of an MT942 interim transaction report that an MT940 statement does not have. MT942 carries
// no opening or closing balance: its currency comes from the floor limit, its totals from :90D:/:90C:.

/** :34F: floor limit: currency, an optional D or C (the limit for debits or credits alone), amount. */
const FLOOR_LIMIT_PATTERN = /^([A-Z]{3})([DC])?([0-9][0-9.,]*)$/;
/** :90D: / :90C: number of entries, currency, sum. */
const TOTALS_PATTERN = /^(\d{1,5})([A-Z]{3})([0-9][0-9.,]*)$/;
/** :13D: YYMMDDhhmm and a UTC offset sign and hhmm. */
const DATE_TIME_PATTERN = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})([+-])(\d{2})(\d{2})$/;

/** The currency of a :34F: floor limit (the amount is a threshold for what the bank reports, not a movement). */
export function floorLimitCurrency(value: string): Parsed<string> {
  const match = FLOOR_LIMIT_PATTERN.exec(value.trim());
  if (match === null) return { ok: false, reason: `floor limit ${shown(value)} is not currency [D|C] amount` };
  const currency = currencyCode(match[1]);
  if (!currency.ok) return currency;
  // mBank writes a limit of nothing as "PLN0", without the comma.
  const amount = mt940Amount(match[3], currency.value, true);
  return amount.ok ? { ok: true, value: currency.value } : amount;
}

export interface Mt942Totals {
  count: number;
  currency: string;
  sumMinor: bigint;
}

/** :90D: (debit entries) or :90C: (credit entries): how many there are and their unsigned sum. */
export function parseTotals(value: string): Parsed<Mt942Totals> {
  const match = TOTALS_PATTERN.exec(value.trim());
  if (match === null) return { ok: false, reason: `entry totals ${shown(value)} are not count currency amount` };
  const currency = currencyCode(match[2]);
  if (!currency.ok) return currency;
  const amount = mt940Amount(match[3], currency.value);
  if (!amount.ok) return amount;
  return { ok: true, value: { count: Number(match[1]), currency: currency.value, sumMinor: amount.value } };
}

/** :13D: is checked, not kept: when the report was made says nothing about the lines' dates. */
export function dateTimeProblem(value: string): string | null {
  const match = DATE_TIME_PATTERN.exec(value.trim());
  const [, year, month, day, hour, minute] = match ?? [];
  const valid =
    match !== null &&
    calendarDate(2000 + Number(year), Number(month), Number(day)) !== null &&
    Number(hour) < 24 &&
    Number(minute) < 60;
  return valid ? null : `date/time indication ${shown(value)} is not YYMMDDhhmm+hhmm`;
}
