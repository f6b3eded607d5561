import { describe, expect, it } from 'vitest';
import { convert } from '../domain/conversion';
import { assertBalanced } from '../domain/transaction-draft';
import { conversionItem } from './conversion-item';

const now = new Date('2026-12-02T10:00:00Z');

function draft(request: unknown) {
  return {
    from: { account: 'alice:eur', currency: 'EUR', amountMinor: 10000n },
    to: { account: 'alice:usd', currency: 'USD' },
    rate: '1.082345',
    rounding: 'half-even' as const,
    amounts: convert({
      fromAmountMinor: 10000n,
      fromCurrency: 'EUR',
      toCurrency: 'USD',
      rate: '1.082345',
      rounding: 'half-even',
    }),
    quoteId: null,
    externalRef: 'fx-1',
    description: null,
    request,
  };
}

describe('conversionItem', () => {
  it('is four legs through the position accounts, each currency zero-sum, with the figures in its metadata', () => {
    const item = conversionItem(draft({ a: 1 }), 'api-key:x', now);
    expect(item.legs).toEqual([
      { account: 'alice:eur', direction: 'debit', amountMinor: 10000n, currency: 'EUR' },
      { account: 'fx:position:EUR', direction: 'credit', amountMinor: 10000n, currency: 'EUR' },
      { account: 'fx:position:USD', direction: 'debit', amountMinor: 10823n, currency: 'USD' },
      { account: 'alice:usd', direction: 'credit', amountMinor: 10823n, currency: 'USD' },
    ]);
    expect(() => assertBalanced(item.legs)).not.toThrow();
    expect(item.metadata).toEqual({
      conversion: {
        from: { account: 'alice:eur', currency: 'EUR', amount: '10000' },
        to: { account: 'alice:usd', currency: 'USD', amount: '10823' },
        rate: '1.082345',
        rounding: 'half-even',
        exactToAmount: '10823.45',
        remainder: '0.45',
        quoteId: null,
      },
    });
    expect(item).toMatchObject({ status: 'posted', actor: 'api-key:x', event: 'transaction.posted', releases: [] });
  });

  it('stands for its request: the same request, the same content hash; another, another', () => {
    const first = conversionItem(draft({ a: 1 }), 'api-key:x', now);
    expect(conversionItem(draft({ a: 1 }), 'api-key:y', now).contentHash.equals(first.contentHash)).toBe(true);
    expect(conversionItem(draft({ a: 2 }), 'api-key:x', now).contentHash.equals(first.contentHash)).toBe(false);
  });
});
