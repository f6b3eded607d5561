import assert from 'node:assert/strict';
import { AMOUNT_MINOR_MAX, currencyExponent } from '@ledger/money';
import Decimal from 'decimal.js';

// Where money is multiplied, decimal.js does it, with the rounding mode named at the call. Amounts go in
// and come out as bigint minor units; only the product of an amount and a rate is a decimal, and it is
// exact: an amount has at most 19 digits and a rate at most RATE_SIGNIFICANT_DIGITS_MAX, so the product
// has fewer digits than the precision below, and scaling by a power of ten loses nothing.

export const ROUNDING_MODES = ['half-even', 'half-up', 'down'] as const;
export type RoundingMode = (typeof ROUNDING_MODES)[number];

export const RATE_SIGNIFICANT_DIGITS_MAX = 12;
/** A rate's text: enough for 12 significant digits behind many zeros ("0.000000000123"), no more. */
export const RATE_LENGTH_MAX = 32;

/** Digits enough for every exact product of an amount (19 digits) and a rate (12), with room to spare. */
const Exact = Decimal.clone({ precision: 64, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -64, toExpPos: 64 });

const DECIMAL_ROUNDING: Readonly<Record<RoundingMode, Decimal.Rounding>> = {
  'half-even': Decimal.ROUND_HALF_EVEN,
  // Amounts are positive: away from zero is up.
  'half-up': Decimal.ROUND_HALF_UP,
  down: Decimal.ROUND_DOWN,
};

const RATE_TEXT = /^[0-9]+(\.[0-9]+)?$/;

/** Why a rate's text is refused, or undefined when it is a positive decimal of at most 12 significant digits. */
export function rateProblem(text: string): string | undefined {
  if (text.length > RATE_LENGTH_MAX) return `must be at most ${RATE_LENGTH_MAX} characters`;
  if (!RATE_TEXT.test(text)) return 'must be a decimal number written with digits and one "." (such as "1.08230")';
  const significant = text.replace('.', '').replace(/^0+/, '');
  if (significant.length === 0) return 'must be greater than zero';
  if (significant.length > RATE_SIGNIFICANT_DIGITS_MAX)
    return `must have at most ${RATE_SIGNIFICANT_DIGITS_MAX} significant digits`;
  return undefined;
}

/** Two rates are the same number ("1.0823" and "1.08230"). */
export function sameRate(left: string, right: string): boolean {
  return new Exact(left).equals(new Exact(right));
}

export interface ConversionInput {
  fromAmountMinor: bigint;
  fromCurrency: string;
  toCurrency: string;
  /** Units of `to` per unit of `from`, a text accepted by `rateProblem`. */
  rate: string;
  rounding: RoundingMode;
}

export interface ConversionAmounts {
  toAmountMinor: bigint;
  /** The exact product in minor units of `to`, as decimal text ("10822.5"). */
  exactToAmount: string;
  /** exact - rounded, in minor units of `to` (negative when rounded up). */
  remainder: string;
}

function exponentOf(currency: string): number {
  const exponent = currencyExponent(currency);
  assert.ok(exponent !== undefined, `unknown currency ${currency}`);
  return exponent;
}

/**
 * The `to` amount of a conversion: from.amount (minor units) / 10^e(from) * rate * 10^e(to), rounded
 * to a whole minor unit as asked. May be 0 or beyond AMOUNT_MINOR_MAX: the caller refuses those.
 */
export function convert(input: ConversionInput): ConversionAmounts {
  assert.ok(input.fromAmountMinor > 0n, 'a conversion converts a positive amount');
  assert.equal(rateProblem(input.rate), undefined, 'the rate was validated');
  const shift = exponentOf(input.toCurrency) - exponentOf(input.fromCurrency);
  const exact = new Exact(input.fromAmountMinor.toString()).times(input.rate).times(new Exact(10).pow(shift));
  const rounded = exact.toDecimalPlaces(0, DECIMAL_ROUNDING[input.rounding]);
  return {
    toAmountMinor: BigInt(rounded.toFixed(0)),
    exactToAmount: exact.toFixed(),
    remainder: exact.minus(rounded).toFixed(),
  };
}

/** A converted amount the ledger can post: above zero, within the range of an amount. */
export function convertedAmountProblem(toAmountMinor: bigint): 'zero' | 'too-large' | undefined {
  if (toAmountMinor === 0n) return 'zero';
  if (toAmountMinor > AMOUNT_MINOR_MAX) return 'too-large';
  return undefined;
}

/**
 * The volume-weighted rate of conversions in one direction: total `to` over total `from`, each in major
 * units, to 12 significant digits (half-even). Undefined without volume.
 */
export function volumeWeightedRate(
  pair: { fromCurrency: string; toCurrency: string },
  totals: { fromAmountMinor: bigint; toAmountMinor: bigint },
): string | undefined {
  if (totals.fromAmountMinor === 0n) return undefined;
  const shift = exponentOf(pair.fromCurrency) - exponentOf(pair.toCurrency);
  const rate = new Exact(totals.toAmountMinor.toString())
    .dividedBy(totals.fromAmountMinor.toString())
    .times(new Exact(10).pow(shift))
    .toSignificantDigits(RATE_SIGNIFICANT_DIGITS_MAX, Decimal.ROUND_HALF_EVEN);
  return rate.toFixed();
}

/** The code of a currency's FX position account, created on first use. */
export function positionAccountCode(currency: string): string {
  return `fx:position:${currency}`;
}

export const POSITION_ACCOUNT_PREFIX = 'fx:position:';
