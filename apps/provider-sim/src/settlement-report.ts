import { minorToDecimal } from '@ledger/money';
import type { SimPayment } from './sim-payments';

/**
 * The built-in bank CSV layout the imports read as `csv:bank`. Its profile names a `value date` column and
 * the reader requires every column it names, so the report writes one (the same day: a provider's booking
 * is value-dated the day it happens).
 */
export const SETTLEMENT_HEADER = 'date,value date,amount,currency,reference,description,counterparty';
/** A report spans at most this many days, as a provider's would. */
export const REPORT_DAYS_MAX = 366;

export interface ReportRange {
  /** YYYY-MM-DD, both inclusive. */
  from: string;
  to: string;
}

interface ReportRow {
  date: string;
  line: string;
}

/** Quotes a field when it holds a delimiter, a quote, a line break or edge spaces; quotes inside are doubled. */
export function csvField(text: string): string {
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function row(date: string, amountMinor: bigint, payment: SimPayment, reference: string, description: string) {
  const { currency, counterparty } = payment.request;
  const fields = [
    date,
    date,
    minorToDecimal(amountMinor, currency),
    currency,
    reference,
    description,
    counterparty.name,
  ];
  return { date, line: fields.map(csvField).join(',') };
}

function inRange(instant: string | null, range: ReportRange): instant is string {
  if (instant === null) return false;
  const date = instant.slice(0, 10);
  return date >= range.from && date <= range.to;
}

/**
 * The rows of one payment in the range: its execution (money out of the merchant's account, negative) on
 * the day it executed, and its return (money back, positive, reference `<reference>:return`) on the day it
 * came back. Days are UTC dates.
 */
function paymentRows(payment: SimPayment, range: ReportRange): ReportRow[] {
  const rows: ReportRow[] = [];
  const { amountMinor, reference, description, direction } = payment.request;
  if (inRange(payment.executedAt, range)) {
    const text = description ?? `${direction} ${reference}`;
    rows.push(row(payment.executedAt.slice(0, 10), -amountMinor, payment, reference, text));
  }
  if (inRange(payment.returnedAt, range)) {
    const text = `return of ${reference}: ${payment.reason ?? 'returned'}`;
    rows.push(row(payment.returnedAt.slice(0, 10), amountMinor, payment, `${reference}:return`, text));
  }
  return rows;
}

/** The report's lines, header first, rows by date (in the order the payments came within a day). */
export function settlementLines(payments: Iterable<SimPayment>, range: ReportRange): string[] {
  const rows: ReportRow[] = [];
  for (const payment of payments) rows.push(...paymentRows(payment, range));
  // Array.prototype.sort is stable, so rows of one day keep the order the provider booked them.
  rows.sort((left, right) => (left.date < right.date ? -1 : left.date > right.date ? 1 : 0));
  return [SETTLEMENT_HEADER, ...rows.map((each) => each.line)];
}

export function renderSettlementCsv(payments: Iterable<SimPayment>, range: ReportRange): string {
  return `${settlementLines(payments, range).join('\r\n')}\r\n`;
}

/** The range of `?from=&to=`, or why it is not one. */
export function readReportRange(from: string | null, to: string | null): ReportRange | string {
  if (from === null || to === null) return 'from and to are required (YYYY-MM-DD)';
  if (!isDate(from) || !isDate(to)) return 'from and to must be dates written YYYY-MM-DD';
  const days = (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;
  if (days < 1) return 'from must not be after to';
  if (days > REPORT_DAYS_MAX) return `a report spans at most ${REPORT_DAYS_MAX} days`;
  return { from, to };
}

/** A real calendar day: Date rolls 2026-02-30 over into March, so the day must read back the same. */
function isDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const time = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(text);
}
