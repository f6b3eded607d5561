// Calendar dates as 'YYYY-MM-DD' text, the proleptic Gregorian calendar of years 0001 to 9999: what bank
// statements carry (dates, not instants, so no Date and no time zone) and what PostgreSQL's date stores.

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

/**
 * Days from 1970-01-01 of an ISO date text, by arithmetic alone (no Date object: a batch converts one per row);
 * null when it is not a real day (see isoDate).
 */
export function unixDaysOfIsoDate(text: string): number | null {
  if (isoDate(text) === null) return null;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 7);
  const day = digitsAt(text, 8, 10);
  // Years counted from March, so that the leap day is the last of its year; eras of 400 years (146,097 days).
  const marchYear = month <= 2 ? year - 1 : year;
  const era = Math.floor(marchYear / 400);
  const yearOfEra = marchYear - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}
