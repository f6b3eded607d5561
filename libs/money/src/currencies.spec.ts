import { describe, expect, it } from 'vitest';
import { CURRENCY_CODES, currencyExponent, isCurrencyCode } from './currencies';

describe('currencyExponent', () => {
  it.each([
    ['JPY', 0],
    ['KRW', 0],
    ['ISK', 0],
    ['VND', 0],
    ['XAF', 0],
    ['XOF', 0],
    ['CLP', 0],
    ['UYI', 0],
    ['USD', 2],
    ['EUR', 2],
    ['GBP', 2],
    ['IDR', 2],
    ['XCG', 2],
    ['ZWG', 2],
    ['XAD', 2],
    ['BHD', 3],
    ['KWD', 3],
    ['JOD', 3],
    ['OMR', 3],
    ['TND', 3],
    ['LYD', 3],
    ['IQD', 3],
    ['CLF', 4],
    ['UYW', 4],
  ])('%s has exponent %i', (code, exponent) => {
    expect(currencyExponent(code)).toBe(exponent);
  });

  it.each(['XAU', 'XAG', 'XPD', 'XPT', 'XDR', 'XXX', 'XTS', 'XSU', 'XUA', 'XBA'])(
    'excludes %s, which has no minor unit',
    (code) => {
      expect(currencyExponent(code)).toBeUndefined();
    },
  );

  it.each(['ANG', 'BGN', 'HRK', 'SLL', 'ZWL', 'MRO', 'VEF'])('excludes withdrawn %s', (code) => {
    expect(currencyExponent(code)).toBeUndefined();
  });

  it.each(['usd', 'Usd', 'US', 'USDX', ' USD', '', 'constructor', '__proto__', 'toString'])(
    'returns undefined for %j',
    (code) => {
      expect(currencyExponent(code)).toBeUndefined();
    },
  );
});

describe('isCurrencyCode', () => {
  it('accepts active codes', () => {
    expect(isCurrencyCode('USD')).toBe(true);
    expect(isCurrencyCode('CLF')).toBe(true);
  });

  it('rejects lower case, unknown and inherited names', () => {
    expect(isCurrencyCode('usd')).toBe(false);
    expect(isCurrencyCode('ABC')).toBe(false);
    expect(isCurrencyCode('hasOwnProperty')).toBe(false);
    expect(isCurrencyCode(undefined as unknown as string)).toBe(false);
  });
});

describe('CURRENCY_CODES', () => {
  it('holds the active ISO 4217 codes with a minor unit (List One less its N.A. entries)', () => {
    expect(CURRENCY_CODES.length).toBe(166);
  });

  it('is sorted, unique, and all upper-case three-letter codes', () => {
    expect([...CURRENCY_CODES].sort()).toEqual(CURRENCY_CODES);
    expect(new Set(CURRENCY_CODES).size).toBe(CURRENCY_CODES.length);
    for (const code of CURRENCY_CODES) expect(code).toMatch(/^[A-Z]{3}$/);
  });

  it('agrees with currencyExponent and only uses exponents 0 to 4', () => {
    for (const code of CURRENCY_CODES) {
      expect(isCurrencyCode(code)).toBe(true);
      expect([0, 2, 3, 4]).toContain(currencyExponent(code));
    }
  });

  it('cannot be modified', () => {
    expect(Object.isFrozen(CURRENCY_CODES)).toBe(true);
    expect(() => (CURRENCY_CODES as string[]).push('ABC')).toThrow(TypeError);
  });
});
