import { DomainError } from '@ledger/errors';
import { describe, expect, it } from 'vitest';
import { type ItemDraft, type LockedAccount, PostingPlanner } from './posting-plan';
import type { DraftLeg } from './transaction-draft';

function account(overrides: Partial<LockedAccount> & Pick<LockedAccount, 'id' | 'code'>): LockedAccount {
  return {
    currency: 'USD',
    normalBalance: 'credit',
    allowNegative: false,
    postedDebits: 0n,
    postedCredits: 0n,
    pendingDebits: 0n,
    pendingCredits: 0n,
    version: 0n,
    ...overrides,
  };
}

const wallet = account({
  id: '00000000-0000-7000-8000-000000000001',
  code: 'wallet',
  postedCredits: 100n,
  version: 4n,
});
const cash = account({
  id: '00000000-0000-7000-8000-000000000002',
  code: 'cash',
  normalBalance: 'debit',
  postedDebits: 100n,
});

function legs(amountMinor: bigint, from = 'wallet', to = 'cash'): DraftLeg[] {
  // Paying out of a wallet: debit the wallet (a liability), credit cash (an asset).
  return [
    { account: from, direction: 'debit', amountMinor, currency: 'USD' },
    { account: to, direction: 'credit', amountMinor, currency: 'USD' },
  ];
}

/** Plans one posted item; throws its error, as a single posting would. */
function planPosting(draftLegs: DraftLeg[], accounts: LockedAccount[]) {
  const planner = new PostingPlanner(accounts);
  const plan = planner.plan({ pending: false, legs: draftLegs, releases: [] });
  if (!plan.ok) throw plan.error;
  return { entries: plan.entries, touches: plan.touches, deltas: planner.accountDeltas() };
}

function codeOf(work: () => unknown): string | undefined {
  try {
    work();
    return undefined;
  } catch (error) {
    return error instanceof DomainError ? error.code : String(error);
  }
}

describe('planPosting', () => {
  it("computes what the item changes on each account, and the accounts' totals", () => {
    const plan = planPosting(legs(30n), [wallet, cash]);
    expect(plan.entries.map((entry) => [entry.accountCode, entry.direction, entry.amountMinor])).toEqual([
      ['wallet', 'debit', 30n],
      ['cash', 'credit', 30n],
    ]);
    expect(plan.touches).toEqual([
      { accountId: wallet.id, postedChange: -30n, availableChange: -30n },
      { accountId: cash.id, postedChange: -30n, availableChange: -30n },
    ]);
    expect(plan.deltas).toEqual([
      {
        accountId: wallet.id,
        postedDebits: 30n,
        postedCredits: 0n,
        pendingDebits: 0n,
        pendingCredits: 0n,
        versions: 1n,
      },
      { accountId: cash.id, postedDebits: 0n, postedCredits: 30n, pendingDebits: 0n, pendingCredits: 0n, versions: 1n },
    ]);
  });

  it('allows spending exactly the available balance and refuses one minor unit more', () => {
    expect(codeOf(() => planPosting(legs(100n), [wallet, cash]))).toBeUndefined();
    expect(codeOf(() => planPosting(legs(101n), [wallet, cash]))).toBe('INSUFFICIENT_FUNDS');
  });

  it('counts pending outflows against available', () => {
    const held = { ...wallet, pendingDebits: 40n };
    expect(codeOf(() => planPosting(legs(60n), [held, cash]))).toBeUndefined();
    expect(codeOf(() => planPosting(legs(61n), [held, cash]))).toBe('INSUFFICIENT_FUNDS');
  });

  it('lets an allowNegative account go below zero', () => {
    const overdraft = { ...wallet, allowNegative: true };
    const treasury = { ...cash, allowNegative: true };
    expect(planPosting(legs(500n), [overdraft, treasury]).touches.map((touch) => touch.postedChange)).toEqual([
      -500n,
      -500n,
    ]);
    expect(codeOf(() => planPosting(legs(500n), [overdraft, cash]))).toBe('INSUFFICIENT_FUNDS');
  });

  it('resolves accounts by id as well as by code, case-insensitively for ids', () => {
    const plan = planPosting(legs(1n, wallet.id.toUpperCase(), 'cash'), [wallet, cash]);
    expect(plan.entries[0]!.accountId).toBe(wallet.id);
  });

  it('names every unknown account', () => {
    const error = (() => {
      try {
        planPosting(legs(1n, 'nope', 'nada'), [wallet, cash]);
      } catch (caught) {
        return caught as DomainError;
      }
    })();
    expect(error?.code).toBe('ACCOUNT_NOT_FOUND');
    expect(error?.details).toEqual({ accounts: ['nope', 'nada'] });
  });

  it('refuses a leg whose currency is not its account currency', () => {
    const euroLegs = legs(1n).map((leg) => ({ ...leg, currency: 'EUR' }));
    expect(codeOf(() => planPosting(euroLegs, [wallet, cash]))).toBe('CURRENCY_MISMATCH');
  });

  it('refuses the same account named by id and by code', () => {
    expect(codeOf(() => planPosting(legs(1n, wallet.id, 'wallet'), [wallet, cash]))).toBe('VALIDATION_FAILED');
  });
});

describe('PostingPlanner across items', () => {
  it('lets each item see the ones before it, and a failed item changes nothing', () => {
    const planner = new PostingPlanner([wallet, cash]);
    const pay = (amountMinor: bigint): ItemDraft => ({ pending: false, legs: legs(amountMinor), releases: [] });
    expect(planner.plan(pay(60n)).ok).toBe(true);
    const refused = planner.plan(pay(50n));
    expect(refused.ok ? undefined : refused.error.code).toBe('INSUFFICIENT_FUNDS');
    const last = planner.plan(pay(40n));
    expect(last.ok && last.touches[0]).toEqual({ accountId: wallet.id, postedChange: -40n, availableChange: -40n });
    expect(planner.accountDeltas()[0]).toMatchObject({ postedDebits: 100n, versions: 2n });
  });

  it('a hold reserves available balance without moving the posted balance', () => {
    const planner = new PostingPlanner([wallet, cash]);
    const hold = planner.plan({ pending: true, legs: legs(70n), releases: [] });
    expect(hold.ok && hold.entries.map((entry) => entry.pending)).toEqual([true, true]);
    expect(hold.ok && hold.touches.map((touch) => [touch.postedChange, touch.availableChange])).toEqual([
      [0n, -70n],
      [0n, -70n],
    ]);
    const second = planner.plan({ pending: true, legs: legs(31n), releases: [] });
    expect(second.ok ? undefined : second.error.code).toBe('INSUFFICIENT_FUNDS');
  });

  it('capturing part of a hold releases all of it and posts the captured part', () => {
    const planner = new PostingPlanner([
      { ...wallet, pendingDebits: 70n },
      { ...cash, pendingCredits: 70n },
    ]);
    const releases = [
      { accountId: wallet.id, direction: 'debit' as const, amountMinor: 70n },
      { accountId: cash.id, direction: 'credit' as const, amountMinor: 70n },
    ];
    const capture = planner.plan({ pending: false, legs: legs(50n), releases });
    expect(capture.ok && capture.touches.map((touch) => [touch.postedChange, touch.availableChange])).toEqual([
      [-50n, 20n],
      [-50n, 20n],
    ]);
    expect(planner.accountDeltas()[0]).toMatchObject({ postedDebits: 50n, pendingDebits: -70n });
  });
});
