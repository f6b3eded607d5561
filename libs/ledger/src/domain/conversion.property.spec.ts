import { CURRENCY_CODES, currencyExponent } from '@ledger/money';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROUNDING_MODES, type RoundingMode, convert } from './conversion';

// The rounding checked against a computation that shares nothing with decimal.js: the exact product as a
// fraction N / D of bigints, rounded by integer division and its remainder.

function exactFraction(
  fromAmountMinor: bigint,
  rate: string,
  shift: number,
): { numerator: bigint; denominator: bigint } {
  const [whole, fraction = ''] = rate.split('.');
  const rateDigits = BigInt(`${whole}${fraction}`);
  const up = BigInt(Math.max(shift, 0));
  const down = BigInt(Math.max(-shift, 0)) + BigInt(fraction.length);
  return { numerator: fromAmountMinor * rateDigits * 10n ** up, denominator: 10n ** down };
}

function roundFraction(numerator: bigint, denominator: bigint, mode: RoundingMode): bigint {
  const quotient = numerator / denominator;
  const twice = 2n * (numerator % denominator);
  if (mode === 'down') return quotient;
  if (mode === 'half-up') return twice >= denominator ? quotient + 1n : quotient;
  if (twice > denominator) return quotient + 1n;
  if (twice < denominator) return quotient;
  return quotient % 2n === 0n ? quotient : quotient + 1n;
}

/** A decimal text times 10^scale, which must come out whole. */
function scaledText(text: string, scale: bigint): bigint {
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = text.replace('-', '').split('.');
  expect(BigInt(fraction.length) <= scale, `${text} has more decimals than 10^${scale} clears`).toBe(true);
  const value = BigInt(`${whole}${fraction.padEnd(Number(scale), '0')}`);
  return negative ? -value : value;
}

const currencies = CURRENCY_CODES.filter((code) =>
  ['JPY', 'KRW', 'USD', 'EUR', 'BHD', 'KWD', 'CLF', 'UYW'].includes(code),
);

/** Rates of 1 to 12 significant digits, anywhere from 1e-12 to 1e12. */
const rateArbitrary = fc
  .tuple(fc.bigInt({ min: 1n, max: 999_999_999_999n }), fc.integer({ min: 0, max: 20 }))
  .map(([digits, decimals]) => {
    const text = digits.toString().padStart(decimals + 1, '0');
    return decimals === 0 ? text : `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
  });

describe('convert, against bigint arithmetic', () => {
  it('rounds every amount, rate and pair of exponents as the bigint computation does, in every mode', () => {
    expect(currencies.map((code) => currencyExponent(code)).sort()).toEqual([0, 0, 2, 2, 3, 3, 4, 4]);
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 2n ** 63n - 1n }),
        rateArbitrary,
        fc.constantFrom(...currencies),
        fc.constantFrom(...currencies),
        fc.constantFrom(...ROUNDING_MODES),
        (fromAmountMinor, rate, fromCurrency, toCurrency, rounding) => {
          const shift = currencyExponent(toCurrency)! - currencyExponent(fromCurrency)!;
          const { numerator, denominator } = exactFraction(fromAmountMinor, rate, shift);
          const expected = roundFraction(numerator, denominator, rounding);
          const result = convert({ fromAmountMinor, fromCurrency, toCurrency, rate, rounding });
          expect(result.toAmountMinor).toBe(expected);
          const scale = BigInt(denominator.toString().length - 1);
          expect(scaledText(result.exactToAmount, scale)).toBe(numerator);
          expect(scaledText(result.remainder, scale)).toBe(numerator - expected * denominator);
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('rounds exact halves: half-even to even, half-up up, down never up', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 15n }), (units) => {
        const fromAmountMinor = 2n * units + 1n; // odd: times 0.5 is a half
        const at = (rounding: RoundingMode) =>
          convert({ fromAmountMinor, fromCurrency: 'USD', toCurrency: 'EUR', rate: '0.5', rounding }).toAmountMinor;
        expect(at('down')).toBe(units);
        expect(at('half-up')).toBe(units + 1n);
        expect(at('half-even')).toBe(units % 2n === 0n ? units : units + 1n);
      }),
    );
  });
});
