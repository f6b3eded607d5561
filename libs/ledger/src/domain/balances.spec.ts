import { describe, expect, it } from 'vitest';
import { balancesOf, signedAmount } from './balances';

describe('balances', () => {
  it('credit-normal: credits - debits, pending debits reserved', () => {
    expect(
      balancesOf({
        normalBalance: 'credit',
        postedDebits: 30n,
        postedCredits: 100n,
        pendingDebits: 20n,
        pendingCredits: 5n,
      }),
    ).toEqual({
      posted: 70n,
      pending: 20n,
      available: 50n,
    });
  });

  it('debit-normal: debits - credits, pending credits reserved', () => {
    expect(
      balancesOf({
        normalBalance: 'debit',
        postedDebits: 100n,
        postedCredits: 30n,
        pendingDebits: 5n,
        pendingCredits: 20n,
      }),
    ).toEqual({
      posted: 70n,
      pending: 20n,
      available: 50n,
    });
  });

  it('an entry on the normal side increases the balance, on the other side decreases it', () => {
    expect(signedAmount('credit', 'credit', 5n)).toBe(5n);
    expect(signedAmount('credit', 'debit', 5n)).toBe(-5n);
    expect(signedAmount('debit', 'debit', 5n)).toBe(5n);
    expect(signedAmount('debit', 'credit', 5n)).toBe(-5n);
  });
});
