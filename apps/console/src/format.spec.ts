import { describe, expect, it } from 'vitest';
import { currencyExponent, formatAge, formatInstant, formatMinor, humanize } from './format';

describe('console formatting', () => {
  it('knows each currency exponent', () => {
    expect([currencyExponent('JPY'), currencyExponent('USD'), currencyExponent('BHD')]).toEqual([0, 2, 3]);
  });

  it('shows minor units exactly, with separators and sign', () => {
    expect(formatMinor('123456', 'USD')).toBe('1,234.56 USD');
    expect(formatMinor('-5', 'USD')).toBe('-0.05 USD');
    expect(formatMinor('1000', 'JPY')).toBe('1,000 JPY');
    expect(formatMinor('1', 'BHD')).toBe('0.001 BHD');
    expect(formatMinor('90071992547409931234', 'USD')).toBe('900,719,925,474,099,312.34 USD');
    expect(formatMinor(null, 'USD')).toBe('—');
    expect(formatMinor('42', null)).toBe('42');
  });

  it('shows times in UTC and ages in days and hours', () => {
    expect(formatInstant('2026-11-30T08:05:09.123Z')).toBe('2026-11-30 08:05 UTC');
    expect(formatInstant(null)).toBe('—');
    expect([formatAge(5), formatAge(48), formatAge(76)]).toEqual(['5 h', '2 d', '3 d 4 h']);
    expect(humanize('missing_in_ledger')).toBe('missing in ledger');
  });
});
