import { describe, expect, it } from 'vitest';
import { formatMoney } from './money';

describe('formatMoney', () => {
  it('shows minor units in major units with the currency exponent, then the code', () => {
    expect(formatMoney(-7950n, 'EUR')).toBe('-79.50 EUR');
    expect(formatMoney(5n, 'USD')).toBe('0.05 USD');
    expect(formatMoney(-7950n, 'JPY')).toBe('-7950 JPY');
    expect(formatMoney(-7950n, 'BHD')).toBe('-7.950 BHD');
    expect(formatMoney(0n, 'KWD')).toBe('0.000 KWD');
  });

  it('refuses a currency it does not know', () => {
    expect(() => formatMoney(1n, 'XXZ')).toThrow(/not a supported ISO 4217 code/);
  });
});
