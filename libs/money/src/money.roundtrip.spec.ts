import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CURRENCY_CODES, currencyExponent } from './currencies';
import { AMOUNT_MINOR_MAX, decimalToMinor, MoneyError, minorToDecimal } from './money';

// Property tests: the two conversions are inverse to each other over the whole storable range of every currency.

describe('round trips', () => {
  const currency = fc.constantFrom(...CURRENCY_CODES);
  const amountMinor = fc.bigInt({ min: -AMOUNT_MINOR_MAX, max: AMOUNT_MINOR_MAX });

  it('minor -> decimal -> minor is the identity for every currency', () => {
    fc.assert(
      fc.property(currency, amountMinor, (code, value) => {
        expect(decimalToMinor(minorToDecimal(value, code), code)).toBe(value);
      }),
      { numRuns: 2000 },
    );
  });

  it('decimal -> minor -> decimal gives back the text, padded to the currency decimals', () => {
    const decimalText = fc
      .tuple(currency, fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 14n }), fc.bigInt({ min: 0n, max: 9999n }))
      .map(([code, negative, integerPart, fraction]) => {
        const exponent = currencyExponent(code) ?? 0;
        const fractionDigits = (fraction % 10n ** BigInt(exponent)).toString().padStart(exponent, '0');
        const body = exponent === 0 ? `${integerPart}` : `${integerPart}.${fractionDigits}`;
        return { code, text: negative && body.replace(/[0.]/g, '') !== '' ? `-${body}` : body };
      });
    fc.assert(
      fc.property(decimalText, fc.nat({ max: 3 }), ({ code, text }, extraZeros) => {
        const padded = text.includes('.') || extraZeros === 0 ? `${text}${'0'.repeat(extraZeros)}` : text;
        expect(minorToDecimal(decimalToMinor(padded, code), code)).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('plain decimals on both sides of the 15-digit fast path give the exact string arithmetic result', () => {
    const plainText = fc.tuple(
      currency,
      fc.boolean(),
      fc.stringMatching(/^[0-9]{1,16}$/),
      fc.nat({ max: 4 }),
      fc.stringMatching(/^[0-9]{4}$/),
    );
    fc.assert(
      fc.property(plainText, ([code, negative, integerPart, fractionLength, fractionSource]) => {
        const exponent = currencyExponent(code) ?? 0;
        const fraction = fractionSource.slice(0, Math.min(fractionLength, exponent));
        const text = `${negative ? '-' : ''}${integerPart}${fraction === '' ? '' : `.${fraction}`}`;
        const exact = BigInt(integerPart + fraction.padEnd(exponent, '0'));
        expect(decimalToMinor(text, code)).toBe(negative ? -exact : exact);
      }),
      { numRuns: 3000 },
    );
  });

  it('a nonzero digit past the currency decimals is always inexact', () => {
    fc.assert(
      fc.property(currency, amountMinor, fc.integer({ min: 1, max: 9 }), (code, value, digit) => {
        const text = minorToDecimal(value, code);
        const withExtra = text.includes('.') ? `${text}${digit}` : `${text}.${digit}`;
        expect(() => decimalToMinor(withExtra, code)).toThrow(
          expect.objectContaining({ constructor: MoneyError, code: 'INEXACT_AMOUNT' }),
        );
      }),
    );
  });

  it('grouped text reads the same as ungrouped text', () => {
    fc.assert(
      fc.property(amountMinor, (value) => {
        const plain = minorToDecimal(value, 'EUR');
        const [integerPart, fractionPart] = plain.replace('-', '').split('.');
        const grouped = integerPart.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
        const text = `${value < 0n ? '-' : ''}${grouped},${fractionPart}`;
        expect(decimalToMinor(text, 'EUR', { decimalSeparator: ',', thousandsSeparator: '.' })).toBe(value);
      }),
    );
  });
});
