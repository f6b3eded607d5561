import { describe, expect, it } from 'vitest';
import { convert, convertedAmountProblem, rateProblem, sameRate, volumeWeightedRate } from './conversion';

describe('rateProblem', () => {
  it('accepts positive decimals of up to 12 significant digits', () => {
    for (const rate of ['1.08230', '1', '0.5', '149.25', '0.000000000123', '123456789012', '1.00000000000'])
      expect(rateProblem(rate), rate).toBeUndefined();
  });

  it('refuses zero, signs, exponents, commas, empty parts and more than 12 significant digits', () => {
    expect(rateProblem('0')).toBe('must be greater than zero');
    expect(rateProblem('0.0000')).toBe('must be greater than zero');
    for (const rate of ['-1.2', '+1.2', '1e3', '1,08', '.5', '5.', '', ' 1.2', '1.2.3', 'NaN', 'Infinity'])
      expect(rateProblem(rate), rate).toMatch(/^must be a decimal/);
    expect(rateProblem('1.234567890123')).toMatch(/12 significant digits/);
    expect(rateProblem('1.000000000000')).toMatch(/12 significant digits/);
    expect(rateProblem(`0.${'0'.repeat(40)}1`)).toMatch(/at most 32 characters/);
  });
});

describe('convert', () => {
  it('converts 100.00 EUR at 1.08230 to exactly 108.23 USD', () => {
    expect(
      convert({
        fromAmountMinor: 10000n,
        fromCurrency: 'EUR',
        toCurrency: 'USD',
        rate: '1.08230',
        rounding: 'half-even',
      }),
    ).toEqual({ toAmountMinor: 10823n, exactToAmount: '10823', remainder: '0' });
  });

  it('scales by the exponents: USD to JPY, JPY to BHD', () => {
    expect(
      convert({ fromAmountMinor: 1050n, fromCurrency: 'USD', toCurrency: 'JPY', rate: '149.37', rounding: 'down' }),
    ).toEqual({ toAmountMinor: 1568n, exactToAmount: '1568.385', remainder: '0.385' });
    expect(
      convert({ fromAmountMinor: 1000n, fromCurrency: 'JPY', toCurrency: 'BHD', rate: '0.0025', rounding: 'down' }),
    ).toEqual({ toAmountMinor: 2500n, exactToAmount: '2500', remainder: '0' });
  });

  it('rounds a half as asked: half-even to the even unit, half-up away from zero, down toward zero', () => {
    const at = (fromAmountMinor: bigint, rounding: 'half-even' | 'half-up' | 'down') =>
      convert({ fromAmountMinor, fromCurrency: 'USD', toCurrency: 'EUR', rate: '0.5', rounding });
    expect(at(5n, 'half-even')).toEqual({ toAmountMinor: 2n, exactToAmount: '2.5', remainder: '0.5' });
    expect(at(7n, 'half-even')).toEqual({ toAmountMinor: 4n, exactToAmount: '3.5', remainder: '-0.5' });
    expect(at(5n, 'half-up')).toEqual({ toAmountMinor: 3n, exactToAmount: '2.5', remainder: '-0.5' });
    expect(at(7n, 'down').toAmountMinor).toBe(3n);
  });

  it('is exact at the largest amount and the longest rate', () => {
    const result = convert({
      fromAmountMinor: 2n ** 63n - 1n,
      fromCurrency: 'USD',
      toCurrency: 'EUR',
      rate: '0.999999999999',
      rounding: 'down',
    });
    // (2^63 - 1) * 999999999999 / 10^12, by hand in bigint.
    const scaled = (2n ** 63n - 1n) * 999999999999n;
    expect(result.toAmountMinor).toBe(scaled / 10n ** 12n);
    expect(result.exactToAmount.replace('.', '')).toBe(scaled.toString());
  });

  it('flags a result of zero or beyond the range of an amount', () => {
    expect(
      convert({ fromAmountMinor: 1n, fromCurrency: 'USD', toCurrency: 'JPY', rate: '0.4', rounding: 'half-even' }),
    ).toMatchObject({ toAmountMinor: 0n });
    expect(convertedAmountProblem(0n)).toBe('zero');
    expect(convertedAmountProblem(2n ** 63n)).toBe('too-large');
    expect(convertedAmountProblem(1n)).toBeUndefined();
  });
});

describe('sameRate and volumeWeightedRate', () => {
  it('compares rates as numbers', () => {
    expect(sameRate('1.0823', '1.08230')).toBe(true);
    expect(sameRate('1.0823', '1.08231')).toBe(false);
  });

  it('weighs by volume, in major units', () => {
    const pair = { fromCurrency: 'EUR', toCurrency: 'JPY' };
    // 100.00 EUR -> 16000 JPY and 300.00 EUR -> 48600 JPY: 64600 / 400 = 161.5.
    expect(volumeWeightedRate(pair, { fromAmountMinor: 40000n, toAmountMinor: 64600n })).toBe('161.5');
    expect(volumeWeightedRate(pair, { fromAmountMinor: 0n, toAmountMinor: 0n })).toBeUndefined();
    expect(
      volumeWeightedRate({ fromCurrency: 'USD', toCurrency: 'EUR' }, { fromAmountMinor: 3n, toAmountMinor: 1n }),
    ).toBe('0.333333333333');
  });
});
