import { DomainError } from '@ledger/errors';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DraftLeg, assertBalanced, assertDistinctAccounts, netByCurrency } from './transaction-draft';

const leg = (account: string, direction: 'debit' | 'credit', amountMinor: bigint, currency = 'USD'): DraftLeg => ({
  account,
  direction,
  amountMinor,
  currency,
});

describe('transaction drafts', () => {
  it('accepts legs that net to zero in every currency', () => {
    expect(() =>
      assertBalanced([
        leg('a', 'debit', 5n),
        leg('b', 'credit', 5n),
        leg('c', 'debit', 9n, 'EUR'),
        leg('d', 'credit', 9n, 'EUR'),
      ]),
    ).not.toThrow();
  });

  it('refuses legs balanced overall but not per currency, naming the currencies', () => {
    try {
      assertBalanced([leg('a', 'debit', 5n), leg('b', 'credit', 5n, 'EUR')]);
      expect.unreachable();
    } catch (error) {
      expect((error as DomainError).code).toBe('UNBALANCED');
      expect((error as DomainError).details).toEqual({
        currencies: [
          { currency: 'USD', debitsMinusCredits: '5' },
          { currency: 'EUR', debitsMinusCredits: '-5' },
        ],
      });
    }
  });

  it('nets any random split of a total to zero, and any change of one leg breaks it', () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: 1n, max: 2n ** 62n }), { minLength: 1, maxLength: 20 }), (amounts) => {
        const total = amounts.reduce((sum, amount) => sum + amount, 0n);
        const legs = [...amounts.map((amount, index) => leg(`d${index}`, 'debit', amount)), leg('c', 'credit', total)];
        expect(netByCurrency(legs).get('USD')).toBe(0n);
        const broken = [...legs.slice(0, -1), leg('c', 'credit', total + 1n)];
        expect(() => assertBalanced(broken)).toThrow(DomainError);
      }),
    );
  });

  it('refuses an account named in two legs', () => {
    expect(() => assertDistinctAccounts([leg('a', 'debit', 1n), leg('a', 'credit', 1n)])).toThrow(DomainError);
    expect(() => assertDistinctAccounts([leg('a', 'debit', 1n), leg('b', 'credit', 1n)])).not.toThrow();
  });
});
