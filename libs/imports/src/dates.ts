// Statement dates: a date-time's calendar date, and the date formats a CSV profile may declare (the calendar
// itself is @ledger/calendar's).
import { calendarDate, isoDate } from '@ledger/calendar';

// An ISO date-time keeps the calendar date the bank wrote (its local date), not the UTC date: a booking at
// 00:30+01:00 on the 1st belongs to the 1st of the bank's day.
const ISO_DATE_TIME_PATTERN =
  /^(\d{4}-\d{2}-\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

export function isoDateOfDateTime(text: string): string | null {
  const match = ISO_DATE_TIME_PATTERN.exec(text);
  return match === null ? null : isoDate(match[1]);
}

export const CSV_DATE_FORMATS = [
  'YYYY-MM-DD',
  'DD.MM.YYYY',
  'DD/MM/YYYY',
  'MM/DD/YYYY',
  'DD-MM-YYYY',
  'YYYYMMDD',
] as const;
export type CsvDateFormat = (typeof CSV_DATE_FORMATS)[number];

const DATE_FORMAT_PATTERNS: Readonly<Record<CsvDateFormat, { pattern: RegExp; order: 'ymd' | 'dmy' | 'mdy' }>> = {
  'YYYY-MM-DD': { pattern: /^(\d{4})-(\d{2})-(\d{2})$/, order: 'ymd' },
  'DD.MM.YYYY': { pattern: /^(\d{2})\.(\d{2})\.(\d{4})$/, order: 'dmy' },
  'DD/MM/YYYY': { pattern: /^(\d{2})\/(\d{2})\/(\d{4})$/, order: 'dmy' },
  'MM/DD/YYYY': { pattern: /^(\d{2})\/(\d{2})\/(\d{4})$/, order: 'mdy' },
  'DD-MM-YYYY': { pattern: /^(\d{2})-(\d{2})-(\d{4})$/, order: 'dmy' },
  YYYYMMDD: { pattern: /^(\d{4})(\d{2})(\d{2})$/, order: 'ymd' },
};

/** Reads a date in one declared format; anything else (other format, impossible day) is null. */
export function dateInFormat(text: string, format: CsvDateFormat): string | null {
  const { pattern, order } = DATE_FORMAT_PATTERNS[format];
  const match = pattern.exec(text);
  if (match === null) return null;
  const [first, second, third] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (order === 'ymd') return calendarDate(first, second, third);
  if (order === 'dmy') return calendarDate(third, second, first);
  return calendarDate(third, first, second);
}
