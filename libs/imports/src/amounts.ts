import { decimalToMinor, type DecimalFormat, isCurrencyCode, MoneyError } from '@ledger/money';
import { shown } from './text-input';

export type Converted<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * Exact decimal text -> signed minor units, with libs/money's rules (extra decimals that are not zeros are an
 * error, never a rounding). Only MoneyError is a data problem; anything else is a bug and propagates.
 */
export function toMinor(
  text: string,
  currency: string,
  format: DecimalFormat = {},
  label = 'amount',
): Converted<bigint> {
  try {
    return { ok: true, value: decimalToMinor(text, currency, format) };
  } catch (error) {
    // libs/money says 'amount "x" ...'; name the field instead ('gross "x" ...', 'entry amount "x" ...').
    if (error instanceof MoneyError) return { ok: false, reason: error.message.replace(/^amount /, `${label} `) };
    throw error;
  }
}

/** An ISO 4217 code as the ledger knows it, upper-cased ("usd" in gateway exports is USD). */
export function currencyCode(text: string): Converted<string> {
  const code = text.trim().toUpperCase();
  if (isCurrencyCode(code)) return { ok: true, value: code };
  return { ok: false, reason: `currency ${shown(text)} is not a supported ISO 4217 code` };
}
