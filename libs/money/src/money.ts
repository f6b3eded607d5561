import { currencyExponent } from './currencies';

/** Largest amount the ledger stores: PostgreSQL's bigint maximum, 2^63 - 1 minor units. */
export const AMOUNT_MINOR_MAX = 2n ** 63n - 1n;

export type MoneyErrorCode = 'INVALID_AMOUNT' | 'INEXACT_AMOUNT' | 'AMOUNT_OUT_OF_RANGE' | 'UNKNOWN_CURRENCY';

/**
 * A money value from outside (API body, imported statement) that cannot be taken as it is.
 * The code is stable so that callers can map it to an API error without parsing the message.
 * Programming mistakes (bad options, a number where a bigint is required) are TypeError/RangeError instead,
 * because they are bugs to fix, not data to report back.
 */
export class MoneyError extends Error {
  override readonly name = 'MoneyError';

  constructor(
    readonly code: MoneyErrorCode,
    message: string,
  ) {
    super(message);
  }
}

// 2^63 - 1 has 19 digits, so any longer digit string is out of range before BigInt has to read it.
const AMOUNT_MINOR_MAX_DIGITS = AMOUNT_MINOR_MAX.toString().length;
const MINOR_UNITS_PATTERN = /^(?:0|[1-9][0-9]*)$/;
const DIGITS_PATTERN = /^[0-9]+$/;

// Inputs end up in error messages and logs: show them quoted (so stray spaces are visible) and bounded.
const SHOWN_INPUT_MAX_CHARS = 40;

function show(input: unknown): string {
  if (typeof input !== 'string') return `a value of type ${input === null ? 'null' : typeof input}`;
  const shown = input.length > SHOWN_INPUT_MAX_CHARS ? `${input.slice(0, SHOWN_INPUT_MAX_CHARS)}...` : input;
  return JSON.stringify(shown);
}

/**
 * Reads the API's JSON amount format: a string of decimal digits in minor units ("1050"), no sign, no leading
 * zeros (except "0" itself), no spaces, decimal point or exponent. Zero is accepted; whether a zero amount makes
 * sense is the caller's rule.
 */
export function parseMinorUnits(text: string): bigint {
  if (typeof text !== 'string') {
    throw new MoneyError('INVALID_AMOUNT', `amount must be a string of digits in minor units, got ${show(text)}`);
  }
  if (text.length > AMOUNT_MINOR_MAX_DIGITS) {
    const looksNumeric = DIGITS_PATTERN.test(text) && text[0] !== '0';
    if (looksNumeric) throw outOfRange(text);
    throw new MoneyError('INVALID_AMOUNT', `amount ${show(text)} is not a string of digits in minor units`);
  }
  if (!MINOR_UNITS_PATTERN.test(text)) {
    throw new MoneyError(
      'INVALID_AMOUNT',
      `amount ${show(text)} is not a string of digits in minor units (no sign, decimal point or leading zeros)`,
    );
  }
  const amountMinor = BigInt(text);
  if (amountMinor > AMOUNT_MINOR_MAX) throw outOfRange(text);
  return amountMinor;
}

export type DecimalSeparator = '.' | ',';
export type ThousandsSeparator = ',' | '.' | ' ' | "'" | '';

export interface DecimalFormat {
  /** Default '.'. */
  decimalSeparator?: DecimalSeparator;
  /** Default '' (no grouping allowed). When set, groups must be exactly three digits ("1,234,567"). */
  thousandsSeparator?: ThousandsSeparator;
}

const DECIMAL_SEPARATORS: readonly string[] = ['.', ','];
const THOUSANDS_SEPARATORS: readonly string[] = [',', '.', ' ', "'", ''];

/**
 * Converts a decimal text in major units ("1234.56", "-12.5", "+3", "1.234,56" with separators given) into signed
 * minor units of `currency`, exactly. More decimals than the currency has are an INEXACT_AMOUNT error unless they
 * are zeros ("12.500" USD is 1250n): silently rounding a statement amount would hide a real discrepancy.
 *
 * Accepted: an optional single leading '+' or '-', at least one integer digit (leading zeros allowed, as
 * fixed-width statement files pad with them), optionally the decimal separator followed by at least one digit.
 * Rejected as INVALID_AMOUNT: surrounding spaces, exponents, NaN/Infinity, ".5", "5.", and grouping that is not
 * exactly three-digit groups after a first group of one to three digits.
 */
export function decimalToMinor(text: string, currency: string, options: DecimalFormat = {}): bigint {
  const exponent = requireExponent(currency);
  if (typeof text !== 'string') {
    throw new MoneyError('INVALID_AMOUNT', `amount must be a decimal string, got ${show(text)}`);
  }
  const { decimalSeparator = '.', thousandsSeparator = '' } = options;
  // Also checks the options: a bad separator is a programming error whatever the text.
  const pattern = amountPattern(decimalSeparator, thousandsSeparator);
  const plain = plainDecimalToMinor(text, exponent, decimalSeparator);
  if (plain !== undefined) return plain;
  const match = pattern.exec(text);
  if (match === null) {
    throw new MoneyError('INVALID_AMOUNT', `amount ${show(text)} is not a plain decimal number`);
  }
  const [, sign, integerDigits, fractionDigits = '0'] = match;
  const integerPart = thousandsSeparator === '' ? integerDigits : integerDigits.replaceAll(thousandsSeparator, '');
  // The pattern admitted digits only, so the conversion is string arithmetic on them: exact by
  // construction, and several times faster than a decimal library on a million statement lines.
  // Trailing zeros are dropped first: they are exactly the "extra zeros are fine" rule.
  const significantFraction = fractionDigits.replace(/0+$/, '');
  if (significantFraction.length > exponent) {
    throw new MoneyError(
      'INEXACT_AMOUNT',
      `amount ${show(text)} has more than ${exponent} decimal places for ${currency}; it cannot be stored exactly`,
    );
  }
  const digits = (integerPart + significantFraction.padEnd(exponent, '0')).replace(/^0+(?=\d)/, '');
  if (digits.length > AMOUNT_MINOR_MAX_DIGITS) throw outOfRange(text);
  const amountMinor = BigInt(digits);
  if (amountMinor > AMOUNT_MINOR_MAX) throw outOfRange(text);
  return sign === '-' ? -amountMinor : amountMinor;
}

const DIGIT_ZERO = 0x30;
const DIGIT_NINE = 0x39;
/** Up to this many digits, scaled to minor units, a decimal is an exact integer in a double (2^53 > 10^15). */
const PLAIN_DIGITS_MAX = 15;

/**
 * The common case of decimalToMinor without regular expressions or intermediate strings: an optional '-',
 * digits, and optionally the separator and at most `exponent` digits ("1234.56"). Every digit goes into a
 * double that stays below 10^15, so the value is exact. Anything else (grouping, '+', more decimals, more
 * digits, any error) is undefined, left to the general path and its error messages.
 */
function plainDecimalToMinor(text: string, exponent: number, decimalSeparator: string): bigint | undefined {
  const negative = text.charCodeAt(0) === 0x2d;
  let position = negative ? 1 : 0;
  let value = 0;
  let integerDigits = 0;
  for (; position < text.length; position++, integerDigits++) {
    const code = text.charCodeAt(position);
    if (code < DIGIT_ZERO || code > DIGIT_NINE) break;
    value = value * 10 + (code - DIGIT_ZERO);
  }
  let fractionDigits = 0;
  if (position < text.length) {
    if (text[position] !== decimalSeparator) return undefined;
    for (position += 1; position < text.length; position++, fractionDigits++) {
      const code = text.charCodeAt(position);
      if (code < DIGIT_ZERO || code > DIGIT_NINE) return undefined;
      value = value * 10 + (code - DIGIT_ZERO);
    }
    if (fractionDigits === 0) return undefined;
  }
  if (integerDigits === 0 || fractionDigits > exponent || integerDigits + exponent > PLAIN_DIGITS_MAX) return undefined;
  const amountMinor = BigInt(value * 10 ** (exponent - fractionDigits));
  return negative ? -amountMinor : amountMinor;
}

/**
 * Exact decimal text of an amount in major units with exactly the currency's number of decimals:
 * -5n USD is "-0.05", 1050n JPY is "1050", 1000n BHD is "1.000". Any bigint is formatted; the range is
 * enforced where amounts come in, not here.
 */
export function minorToDecimal(amountMinor: bigint, currency: string): string {
  const exponent = requireExponent(currency);
  if (typeof amountMinor !== 'bigint') {
    throw new TypeError(`amountMinor must be a bigint, got ${typeof amountMinor}`);
  }
  const negative = amountMinor < 0n;
  const digits = (negative ? -amountMinor : amountMinor).toString().padStart(exponent + 1, '0');
  const integerPart = digits.slice(0, digits.length - exponent);
  const fractionPart = digits.slice(digits.length - exponent);
  const unsigned = exponent === 0 ? integerPart : `${integerPart}.${fractionPart}`;
  return negative ? `-${unsigned}` : unsigned;
}

/**
 * The one way a person reads an amount: major units with the currency's decimals, then the code.
 * -7950n EUR is "-79.50 EUR", 1050n JPY is "1050 JPY", 1000n BHD is "1.000 BHD".
 */
export function formatMoney(amountMinor: bigint, currency: string): string {
  return `${minorToDecimal(amountMinor, currency)} ${currency}`;
}

function requireExponent(currency: string): number {
  const exponent = typeof currency === 'string' ? currencyExponent(currency) : undefined;
  if (exponent === undefined) {
    throw new MoneyError('UNKNOWN_CURRENCY', `currency ${show(currency)} is not a supported ISO 4217 code`);
  }
  return exponent;
}

function outOfRange(text: string): MoneyError {
  return new MoneyError(
    'AMOUNT_OUT_OF_RANGE',
    `amount ${show(text)} is outside the storable range of +/-${AMOUNT_MINOR_MAX} minor units`,
  );
}

// One pattern per separator pair, built on first use; there are only a handful of valid pairs.
const patternBySeparators = new Map<string, RegExp>();

function amountPattern(decimalSeparator: string, thousandsSeparator: string): RegExp {
  const key = `${decimalSeparator}|${thousandsSeparator}`;
  const cached = patternBySeparators.get(key);
  if (cached !== undefined) return cached;
  if (!DECIMAL_SEPARATORS.includes(decimalSeparator)) {
    throw new RangeError(`decimalSeparator must be one of ${JSON.stringify(DECIMAL_SEPARATORS)}`);
  }
  if (!THOUSANDS_SEPARATORS.includes(thousandsSeparator)) {
    throw new RangeError(`thousandsSeparator must be one of ${JSON.stringify(THOUSANDS_SEPARATORS)}`);
  }
  if (decimalSeparator === thousandsSeparator) {
    throw new RangeError(`decimalSeparator and thousandsSeparator are both ${JSON.stringify(decimalSeparator)}`);
  }
  const group = escapeRegExp(thousandsSeparator);
  // Ungrouped digits stay allowed alongside grouped ones: many exports drop the separator on small amounts.
  const integer = thousandsSeparator === '' ? '[0-9]+' : `[0-9]{1,3}(?:${group}[0-9]{3})+|[0-9]+`;
  const pattern = new RegExp(`^([+-]?)(${integer})(?:${escapeRegExp(decimalSeparator)}([0-9]+))?$`);
  patternBySeparators.set(key, pattern);
  return pattern;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
