import assert from 'node:assert/strict';
import { DomainError } from '@ledger/errors';
import { type AccountTouch, type LockedAccount, type PlannedEntry, PostingPlanner } from '../domain/posting-plan';
import type { NewItem } from './new-item';
import type { PostingsWrite } from './posting.repository';
import type { TransactionView } from './transaction.view';

/** What became of one item: written, found written before (its external reference), or refused. */
export type ItemResult =
  | { status: 'created'; transaction: TransactionView }
  | { status: 'exists'; transactionId: string }
  | { status: 'error'; error: DomainError };

/** An item the plan accepted: its place among the items, and what it writes. */
export interface Created {
  index: number;
  item: NewItem;
  entries: PlannedEntry[];
  touches: AccountTouch[];
}

/** An external reference already used, as found under its lock. */
export interface ClaimedRef {
  id: string;
  contentHash: Buffer;
}

/** The items planned in order: each one's result, or its place among the created ones. */
export interface PlannedItems {
  planner: PostingPlanner;
  results: (ItemResult | undefined)[];
  created: Created[];
  /** Items the planner refused (for their balances, accounts or currencies), not for their references. */
  refusedByPlan: number;
}

export function accountRefsOf(items: readonly NewItem[]): string[] {
  return items.flatMap((item) => [
    ...item.legs.map((leg) => leg.account),
    ...item.releases.map((release) => release.accountId),
  ]);
}

/** Plans every item in order against `accounts`, claiming the references of the items it accepts. */
export function planItems(
  items: readonly NewItem[],
  claimedRefs: Map<string, ClaimedRef>,
  accounts: readonly LockedAccount[],
): PlannedItems {
  const planned: PlannedItems = { planner: new PostingPlanner(accounts), results: [], created: [], refusedByPlan: 0 };
  for (const [index, item] of items.entries()) {
    const claimed = item.externalRef ? claimedRefs.get(item.externalRef) : undefined;
    if (claimed) {
      planned.results.push(
        claimed.contentHash.equals(item.contentHash)
          ? { status: 'exists', transactionId: claimed.id }
          : {
              status: 'error',
              error: new DomainError(
                'EXTERNAL_REF_CONFLICT',
                `externalRef ${item.externalRef} already names a different transaction`,
                { externalRef: item.externalRef, transactionId: claimed.id },
              ),
            },
      );
      continue;
    }
    const plan = planned.planner.plan({ pending: item.status === 'pending', legs: item.legs, releases: item.releases });
    if (!plan.ok) {
      planned.results.push({ status: 'error', error: plan.error });
      planned.refusedByPlan += 1;
      continue;
    }
    if (item.externalRef) claimedRefs.set(item.externalRef, { id: item.id, contentHash: item.contentHash });
    planned.created.push({ index, item, entries: plan.entries, touches: plan.touches });
    planned.results.push(undefined);
  }
  return planned;
}

export function postingsOf({ planner, created }: PlannedItems): PostingsWrite {
  return {
    transactions: created.map(({ item, entries, touches }) => ({ row: item, entries, touches })),
    deltas: planner.accountDeltas(),
    openedHolds: created.flatMap(({ item }) =>
      item.status === 'pending' ? [{ holdId: item.id, expiresAt: item.expiresAt! }] : [],
    ),
    closedHoldIds: created.flatMap(({ item }) => (item.holdId ? [item.holdId] : [])),
  };
}

/** The results in input order, the created items' views filled in. */
export function resultsOf({ results, created }: PlannedItems, views: readonly TransactionView[]): ItemResult[] {
  created.forEach((entry, offset) => {
    results[entry.index] = { status: 'created', transaction: views[offset]! };
  });
  return results.map((result) => {
    assert.ok(result !== undefined, 'every item has a result');
    return result;
  });
}
