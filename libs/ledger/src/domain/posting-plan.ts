import { isUuid } from '@ledger/ids';
import { DomainError } from '@ledger/errors';
import { formatMoney } from '@ledger/money';
import { type AccountTotals, type Side, balancesOf } from './balances';
import type { DraftLeg } from './transaction-draft';

/** An account as the planner sees it: read under its lock, or read just before it by a batch (see AccountsTaking). */
export interface LockedAccount extends AccountTotals {
  id: string;
  code: string;
  currency: string;
  allowNegative: boolean;
  version: bigint;
}

/** A resolved hold's leg: its reserved amount goes back. */
export interface ReleasedLeg {
  accountId: string;
  direction: Side;
  amountMinor: bigint;
}

export interface ItemDraft {
  /** 'pending' legs reserve amounts; 'posted' legs move posted balances. */
  pending: boolean;
  legs: readonly DraftLeg[];
  releases: readonly ReleasedLeg[];
}

export interface PlannedEntry {
  leg: number;
  accountId: string;
  accountCode: string;
  direction: Side;
  pending: boolean;
  amountMinor: bigint;
  currency: string;
}

/**
 * What one item changes on one account it moves or releases: the account's version goes up by one,
 * its balances by these. They do not depend on the balances, so the write turns them into each entry's
 * version and posted balance after from the account rows as locked, and checks each non-negative
 * account's available balance after every item (see POSTINGS_CTES).
 */
export interface AccountTouch {
  accountId: string;
  postedChange: bigint;
  availableChange: bigint;
}

export type ItemPlan =
  | { ok: true; entries: PlannedEntry[]; touches: AccountTouch[] }
  | { ok: false; error: DomainError };

/** What the batch changes on one account, summed over its successful items. */
export interface AccountDelta {
  accountId: string;
  postedDebits: bigint;
  postedCredits: bigint;
  pendingDebits: bigint;
  pendingCredits: bigint;
  versions: bigint;
}

type TotalsField = 'postedDebits' | 'postedCredits' | 'pendingDebits' | 'pendingCredits';

function field(pending: boolean, direction: Side): TotalsField {
  if (pending) return direction === 'debit' ? 'pendingDebits' : 'pendingCredits';
  return direction === 'debit' ? 'postedDebits' : 'postedCredits';
}

function resolveLegs(legs: readonly DraftLeg[], byRef: ReadonlyMap<string, LockedAccount>): LockedAccount[] {
  const refOf = (leg: DraftLeg) => (isUuid(leg.account) ? leg.account.toLowerCase() : leg.account);
  const missing = legs.filter((leg) => !byRef.has(refOf(leg)));
  if (missing.length > 0) {
    throw new DomainError('ACCOUNT_NOT_FOUND', `unknown account ${missing[0]!.account}`, {
      accounts: missing.map((leg) => leg.account),
    });
  }
  const resolved = legs.map((leg) => byRef.get(refOf(leg))!);
  if (new Set(resolved.map((account) => account.id)).size !== resolved.length) {
    throw new DomainError('VALIDATION_FAILED', 'an account may appear in only one leg of a transaction', {
      fields: [{ path: 'entries', message: 'the same account is named twice' }],
    });
  }
  legs.forEach((leg, index) => {
    const account = resolved[index]!;
    if (account.currency !== leg.currency) {
      throw new DomainError(
        'CURRENCY_MISMATCH',
        `account ${account.code} holds ${account.currency}, not ${leg.currency}`,
        {
          leg: index,
          account: account.code,
          accountCurrency: account.currency,
          entryCurrency: leg.currency,
        },
      );
    }
  });
  return resolved;
}

/**
 * Plans items in order against accounts already locked, each seeing the effects of the ones before.
 * An item that would take a non-negative account's available balance below zero, or names a wrong
 * account or currency, fails alone: its effects are not applied and later items do not see them.
 */
export class PostingPlanner {
  private readonly state = new Map<string, LockedAccount>();
  private readonly byRef = new Map<string, LockedAccount>();
  private readonly deltas = new Map<string, AccountDelta>();

  constructor(accounts: readonly LockedAccount[]) {
    for (const account of accounts) {
      this.state.set(account.id, { ...account });
      this.byRef.set(account.id, account);
      this.byRef.set(account.code, account);
    }
  }

  plan(item: ItemDraft): ItemPlan {
    try {
      return { ok: true, ...this.apply(item) };
    } catch (error) {
      if (error instanceof DomainError) return { ok: false, error };
      throw error;
    }
  }

  accountDeltas(): AccountDelta[] {
    return [...this.deltas.values()].sort((left, right) => (left.accountId < right.accountId ? -1 : 1));
  }

  private apply(item: ItemDraft): { entries: PlannedEntry[]; touches: AccountTouch[] } {
    const resolved = resolveLegs(item.legs, this.byRef);
    const next = new Map<string, LockedAccount>();
    const touch = (accountId: string) => {
      if (!next.has(accountId)) next.set(accountId, { ...this.state.get(accountId)! });
      return next.get(accountId)!;
    };
    for (const release of item.releases)
      touch(release.accountId)[field(true, release.direction)] -= release.amountMinor;
    item.legs.forEach((leg, index) => {
      touch(resolved[index]!.id)[field(item.pending, leg.direction)] += leg.amountMinor;
    });
    for (const account of next.values()) {
      const available = balancesOf(account).available;
      if (!account.allowNegative && available < 0n) {
        const before = balancesOf(this.state.get(account.id)!).available;
        throw new DomainError(
          'INSUFFICIENT_FUNDS',
          `account ${account.code} has ${formatMoney(before, account.currency)} available, ` +
            `needs ${formatMoney(before - available, account.currency)}`,
          {
            account: account.code,
            availableMinor: before.toString(),
            requiredMinor: (before - available).toString(),
            currency: account.currency,
          },
        );
      }
      account.version += 1n;
    }
    const touches = [...next.values()].map((account) => {
      const before = balancesOf(this.state.get(account.id)!);
      const after = balancesOf(account);
      return {
        accountId: account.id,
        postedChange: after.posted - before.posted,
        availableChange: after.available - before.available,
      };
    });
    this.commit(next);
    const entries = item.legs.map((leg, index) => {
      const account = resolved[index]!;
      return {
        leg: index,
        accountId: account.id,
        accountCode: account.code,
        direction: leg.direction,
        pending: item.pending,
        amountMinor: leg.amountMinor,
        currency: leg.currency,
      };
    });
    return { entries, touches };
  }

  private commit(next: ReadonlyMap<string, LockedAccount>): void {
    for (const account of next.values()) {
      const before = this.state.get(account.id)!;
      const delta = this.deltas.get(account.id) ?? {
        accountId: account.id,
        postedDebits: 0n,
        postedCredits: 0n,
        pendingDebits: 0n,
        pendingCredits: 0n,
        versions: 0n,
      };
      delta.postedDebits += account.postedDebits - before.postedDebits;
      delta.postedCredits += account.postedCredits - before.postedCredits;
      delta.pendingDebits += account.pendingDebits - before.pendingDebits;
      delta.pendingCredits += account.pendingCredits - before.pendingCredits;
      delta.versions += account.version - before.version;
      this.deltas.set(account.id, delta);
      this.state.set(account.id, account);
    }
  }
}
