// Calendar dates as 'YYYY-MM-DD' text: statements carry bank dates, not instants, so no Date/time zone is used.

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function isCalendarDay(year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || year < 1 || year > 9999) return false;
  if (!Number.isInteger(month) || month < 1 || month > 12) return false;
  return Number.isInteger(day) && day >= 1 && day <= daysInMonth(year, month);
}

/** 'YYYY-MM-DD' when year/month/day name a real calendar day, else null. */
export function calendarDate(year: number, month: number, day: number): string | null {
  if (!isCalendarDay(year, month, day)) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The ASCII digits of text[from, to) as a number; NaN when one of them is not a digit. */
function digitsAt(text: string, from: number, to: number): number {
  let value = 0;
  for (let at = from; at < to; at += 1) {
    const digit = text.charCodeAt(at) - 48;
    if (digit < 0 || digit > 9) return Number.NaN;
    value = value * 10 + digit;
  }
  return value;
}

const HYPHEN = 45;

/** Checks an ISO date text ('2024-02-30' is null), read in place: every statement line has one or two. */
export function isoDate(text: string): string | null {
  if (text.length !== 10 || text.charCodeAt(4) !== HYPHEN || text.charCodeAt(7) !== HYPHEN) return null;
  // The shape is fixed, so a real day is already written the way calendarDate would write it.
  return isCalendarDay(digitsAt(text, 0, 4), digitsAt(text, 5, 7), digitsAt(text, 8, 10)) ? text : null;
}

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
