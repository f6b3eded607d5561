import assert from 'node:assert/strict';
import { Injectable } from '@nestjs/common';
import { Database, awaitedLater } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import { type GroupedAnswer, type GroupedRequest, type WrittenItem, withExisting } from './grouped-request';
import { type NamedTransaction, NamedTransactionRepository } from './named-transaction.repository';
import type { NewItem } from './new-item';
import { type AccountsTaking, PostingEngine, plannedAheadThenUnderLocks } from './posting-engine';
import { TransactionRepository } from './transaction.repository';

type Grouped = GroupedRequest<unknown, unknown>;

/** A request's end once its group committed: its answer, or what refuses it. */
export type Settled = { ok: true; value: GroupedAnswer<unknown> } | { ok: false; error: unknown };

function itemsOf(group: readonly Grouped[]): NewItem[] {
  return group.flatMap((request) => request.items);
}

/** A request's items as written: its own, or the one made from the transaction it names, or what refuses it. */
function itemsMade(request: Grouped, named: ReadonlyMap<string, NamedTransaction>): readonly NewItem[] | DomainError {
  if (request.named === undefined) return request.items;
  try {
    return [request.named.make(named.get(request.named.id))];
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
}

/** One group's database transaction: what PostingGroups runs for each group it takes from a queue. */
@Injectable()
export class GroupTransaction {
  constructor(
    private readonly db: Database,
    private readonly engine: PostingEngine,
    private readonly transactions: TransactionRepository,
    private readonly namedTransactions: NamedTransactionRepository,
  ) {}

  /**
   * In a transaction of its own; planned ahead of the locks, and again under them if the accounts moved
   * (then `plannedAgain` is called). Each request's settlement, in the group's order.
   */
  writePlanned(
    tenantId: string,
    group: readonly Grouped[],
    taking: AccountsTaking,
    plannedAgain: () => void,
  ): Promise<Settled[]> {
    const write = (taken: AccountsTaking) =>
      this.db.transaction('read committed', () => this.write(tenantId, group, taken));
    if (taking === 'locked before planning') return write(taking);
    return plannedAheadThenUnderLocks(write, plannedAgain);
  }

  /**
   * In the group's transaction: the keys claimed, the new postings planned and written together, their
   * outcomes stored under their keys, a fixed number of statements for any group. A refusal (of the
   * key or of a posting) is that request's or item's; anything thrown fails the group's transaction.
   *
   * The statements are sent one behind the other where the next does not depend on the answer before
   * (see awaitedLater): the locks behind the key claims (taken for every item of the group, also those
   * of a request whose key turns out to be a replay), the outcomes behind the write, COMMIT behind the
   * outcomes. So under its locks the group waits for the event loop once, to plan, not six times. A group
   * with captures, voids or reversals locks and reads the transactions they name behind the claims, and
   * its accounts once their items are made from those: one round trip more.
   */
  private async write(tenantId: string, group: readonly Grouped[], taking: AccountsTaking): Promise<Settled[]> {
    const { steps } = group[0]!.key;
    assert.ok(
      group.every(({ key }) => key.steps === steps),
      'the keys of a group take the same steps',
    );
    const claiming = awaitedLater(steps.claimAll(group.map(({ key }) => key)));
    const namedIds = group.flatMap(({ named }) => (named === undefined ? [] : [named.id]));
    const namedRead =
      namedIds.length === 0 ? undefined : awaitedLater(this.namedTransactions.lockAndRead(tenantId, namedIds));
    const known = itemsOf(group);
    const lockedEarly =
      namedRead === undefined && known.length > 0 ? awaitedLater(this.engine.lock(tenantId, known, taking)) : undefined;
    const settled: Settled[] = new Array(group.length);
    const claims = await claiming;
    const named = namedRead === undefined ? new Map<string, NamedTransaction>() : await namedRead;
    const posted: { waiting: Grouped; at: number; items: readonly NewItem[] | DomainError }[] = [];
    for (const [offset, claim] of claims.entries()) {
      const waiting = group[offset]!;
      if (claim === undefined) posted.push({ waiting, at: offset, items: itemsMade(waiting, named) });
      else if (claim instanceof DomainError) settled[offset] = { ok: false, error: claim };
      else settled[offset] = { ok: true, value: { answer: claim, existing: false } };
    }
    const postedItems = posted.flatMap(({ items }) => (items instanceof DomainError ? [] : items));
    const locked =
      lockedEarly ??
      (postedItems.length === 0 ? undefined : awaitedLater(this.engine.lock(tenantId, postedItems, taking)));
    // Nothing to write (replays, refused keys, batches of invalid items only): the locks' statements still end first.
    const { results, written } =
      postedItems.length === 0
        ? { results: [], written: awaitedLater(Promise.resolve(locked).then(() => {})) }
        : await this.engine.send(tenantId, postedItems, locked!);
    if (posted.length === 0) {
      await written;
      return settled;
    }
    if (results.some((result) => result.status === 'exists')) await written;
    const writtenItems = await withExisting(this.transactions, tenantId, results);
    let next = 0;
    const outcomes = posted.map(({ waiting, items }) => {
      let own: WrittenItem[];
      if (items instanceof DomainError) own = [{ status: 'error', error: items }];
      else {
        own = writtenItems.slice(next, next + items.length);
        next += items.length;
      }
      const outcome = waiting.outcome(own);
      const existing = own.length > 0 && own.every((result) => result.status === 'exists');
      return { key: waiting.key, outcome, existing };
    });
    const storing = awaitedLater(
      steps.storeAll(
        outcomes.map(({ key, outcome }) =>
          outcome instanceof DomainError ? { key, error: outcome } : { key, body: outcome },
        ),
      ),
    );
    this.db.commitBehindSent();
    await written;
    const answers = await storing;
    for (const [index, answer] of answers.entries())
      settled[posted[index]!.at] = { ok: true, value: { answer, existing: outcomes[index]!.existing } };
    return settled;
  }
}
