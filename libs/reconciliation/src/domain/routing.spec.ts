import { describe, expect, it } from 'vitest';
import { type OwnerRoute, UNASSIGNED, ownerFor } from './routing';

const route = (overrides: Partial<OwnerRoute> & Pick<OwnerRoute, 'owner' | 'priority'>): OwnerRoute => ({
  kind: null,
  source: null,
  accountPrefix: null,
  minAmountMinor: null,
  ...overrides,
});

const finding = {
  kind: 'amount_mismatch' as const,
  source: 'bank-eur',
  accountCode: 'assets:bank:eur',
  amountMinor: -5000n,
};

describe('ownerFor', () => {
  it('takes the first matching rule by priority, every criterion applying', () => {
    const routes = [
      route({ priority: 30, owner: 'default' }),
      route({ priority: 10, owner: 'big-money', minAmountMinor: 10_000n }),
      route({ priority: 20, owner: 'bank-team', accountPrefix: 'assets:bank:', kind: 'amount_mismatch' }),
    ];
    expect(ownerFor(finding, routes)).toBe('bank-team');
    expect(ownerFor({ ...finding, amountMinor: -20_000n }, routes)).toBe('big-money');
    expect(ownerFor({ ...finding, kind: 'duplicate' }, routes)).toBe('default');
  });

  it('compares amounts by magnitude and skips amount rules for findings without an amount', () => {
    const routes = [route({ priority: 1, owner: 'big', minAmountMinor: 100n })];
    expect(ownerFor({ ...finding, amountMinor: -100n }, routes)).toBe('big');
    expect(ownerFor({ ...finding, amountMinor: null }, routes)).toBe(UNASSIGNED);
  });

  it('routes by source', () => {
    expect(ownerFor(finding, [route({ priority: 1, owner: 'gw', source: 'gateway' })])).toBe(UNASSIGNED);
    expect(ownerFor({ ...finding, source: 'gateway' }, [route({ priority: 1, owner: 'gw', source: 'gateway' })])).toBe(
      'gw',
    );
  });
});
