// Amounts arrive as strings of integer minor units; they are shown exactly, never through a float.

/** Digits after the decimal point for a currency (ISO 4217: JPY 0, USD 2, BHD 3), as the browser knows them. */
export function currencyExponent(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 0;
  }
}

/** `"-123456"`, `"USD"` -> `"-1,234.56 USD"`. */
export function formatMinor(amount: string | null | undefined, currency: string | null | undefined): string {
  if (amount === null || amount === undefined) return '—';
  const exponent = currency ? currencyExponent(currency) : 0;
  const negative = amount.startsWith('-');
  const digits = (negative ? amount.slice(1) : amount).padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = exponent > 0 ? `.${digits.slice(digits.length - exponent)}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}${currency ? ` ${currency}` : ''}`;
}

/** `"2026-11-30T08:05:00.000Z"` -> `"2026-11-30 08:05 UTC"`: times are UTC everywhere in the ledger. */
export function formatInstant(iso: string | null | undefined): string {
  if (!iso) return '—';
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** Whole hours -> `"5 h"`, `"3 d 4 h"`. */
export function formatAge(hours: number): string {
  if (hours < 24) return `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}

/** `"opened"` / `"auto_resolved"` -> `"auto resolved"`. */
export function humanize(code: string): string {
  return code.replaceAll('_', ' ');
}
