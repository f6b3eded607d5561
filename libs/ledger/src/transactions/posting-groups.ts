import assert from 'node:assert/strict';
import { Injectable } from '@nestjs/common';
import { Database, awaitedLater } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import { type GroupLane, LANES, QUEUED_GROUPS_MAX, takeGroup } from './group-lanes';
import { type NamedTransaction, NamedTransactionRepository } from './named-transaction.repository';
import { sizedItemFromRequest } from './new-item';
import type { PostTransactionCommand } from './post-transaction.use-case';
import type { NewItem } from './new-item';
import type { ItemResult } from './planned-items';
import { type AccountsTaking, PostingEngine, plannedAheadThenUnderLocks } from './posting-engine';
import { TransactionRepository } from './transaction.repository';
import type { TransactionView } from './transaction.view';

/**
 * A posting request's Idempotency-Key, used in the transaction that writes it: a group's (the shape
 * of the idempotency lib's KeyInTransaction; `A` is its outcome, the request's answer, and `Body`
 * what a success stores).
 */
export interface GroupedKey<A, Body = TransactionView> {
  /** Two requests whose keys have the same name are never in one group, nor in two groups in flight. */
  readonly name: string;
  /** The same object for every key of a group. */
  readonly steps: GroupedKeySteps<A, Body>;
}

export interface GroupedKeySteps<A, Body = TransactionView> {
  /** Per key: undefined to post it, the answer stored before (a replay), or the error that refuses it. */
  claimAll(keys: readonly GroupedKey<A, Body>[]): Promise<(A | DomainError | undefined)[]>;
  /** Each request's outcome stored under its key: written (the transactions) or refused (nothing written). */
  storeAll(
    results: readonly ({ key: GroupedKey<A, Body>; body: Body } | { key: GroupedKey<A, Body>; error: DomainError })[],
  ): Promise<A[]>;
}

/** An item's result once written: created, an existing transaction (same externalRef and content), or refused. */
export type WrittenItem =
  | { status: 'created' | 'exists'; transaction: TransactionView }
  | { status: 'error'; error: DomainError };

/** The results with each `exists` one's transaction read: once the write is done. */
export async function withExisting(
  transactions: TransactionRepository,
  tenantId: string,
  results: readonly ItemResult[],
): Promise<WrittenItem[]> {
  const written: WrittenItem[] = [];
  for (const result of results) {
    if (result.status !== 'exists') {
      written.push(result);
      continue;
    }
    const transaction = await transactions.findById(tenantId, result.transactionId);
    assert.ok(transaction !== undefined, 'an externalRef names a transaction of the tenant');
    written.push({ status: 'exists', transaction });
  }
  return written;
}

/**
 * A capture, void or reversal: its one item is made in the group's transaction, from the transaction it
 * names as locked and read there (NamedTransactionRepository).
 */
export interface ItemFromNamed {
  /** The transaction it names. Two requests naming one transaction never share a group, nor two groups in flight. */
  id: string;
  /** Its item, from that transaction (undefined: there is none); throws the DomainError that refuses the request. */
  make(named: NamedTransaction | undefined): NewItem;
}

/** A request to write in a group: its items, and what its key stores once they are written. */
export interface GroupedRequest<A, Body> {
  /** None when its one item is made from a transaction it names (`named`). */
  items: readonly NewItem[];
  named?: ItemFromNamed;
  /** Its JSON, counted against the lane's byte bound. */
  bytes: number;
  key: GroupedKey<A, Body>;
  /** What the key stores, from the items' results in their order: a body, or the error refusing it all. */
  outcome(results: readonly WrittenItem[]): Body | DomainError;
}

export interface GroupedAnswer<A> {
  answer: A;
  /** Every item named a transaction with the same content that already existed. */
  existing: boolean;
}

/** `group`: the first try; `retry`: the group again after a database error; `alone`: one request after both failed. */
export type GroupAttempt = 'group' | 'retry' | 'alone';

export interface GroupWritten {
  lane: GroupLane;
  requests: number;
  items: number;
  attempt: GroupAttempt;
}

export type GroupListener = (written: GroupWritten) => void;

interface Waiting extends GroupedRequest<unknown, unknown> {
  /** The items it writes. */
  size: number;
  /** What no other request of its group or of a group in flight may name: its key, the transaction it names. */
  names: string[];
  resolve(answer: GroupedAnswer<unknown>): void;
  reject(error: unknown): void;
}

/** A tenant's queue of one lane, and the names of its groups in flight. */
interface Queue {
  waiting: Waiting[];
  items: number;
  inFlight: number;
  busyNames: Set<string>;
}

type Settled = { ok: true; value: GroupedAnswer<unknown> } | { ok: false; error: unknown };

function answerAll(group: readonly Waiting[], settled: readonly Settled[]): void {
  for (const [offset, outcome] of settled.entries()) {
    if (outcome.ok) group[offset]!.resolve(outcome.value);
    else group[offset]!.reject(outcome.error);
  }
}

function itemsOf(group: readonly Waiting[]): NewItem[] {
  return group.flatMap((waiting) => waiting.items);
}

function sizeOf(group: readonly Waiting[]): number {
  return group.reduce((size, waiting) => size + waiting.size, 0);
}

/** A request's items as written: its own, or the one made from the transaction it names, or what refuses it. */
function itemsMade(waiting: Waiting, named: ReadonlyMap<string, NamedTransaction>): readonly NewItem[] | DomainError {
  if (waiting.named === undefined) return waiting.items;
  try {
    return [waiting.named.make(named.get(waiting.named.id))];
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
}

/**
 * Group commit. A request that finds no group of its tenant and lane in flight (or fewer than the
 * lane allows) is written at once; those that arrive meanwhile queue, and when a transaction in flight
 * ends they are written together as the next group (bounded), in one transaction, through the
 * engine's batch path which plans each item on its own. No timer: nobody waits for a group to fill.
 * Each request keeps its own answer and Idempotency-Key outcome, both settled only once the group
 * committed.
 *
 * A group is one tenant's: one tenant's journal stripe and accounts per transaction, as in a batch.
 * A database error retries the group once; if it fails again, each request is written alone, so one
 * request's failure is its own. A group planned ahead of its locks whose accounts moved meanwhile is
 * planned again under them (the first try rolled back), which is not a retry.
 */
@Injectable()
export class PostingGroups {
  private readonly queues = new Map<string, Queue>();
  private readonly listeners: GroupListener[] = [];
  private readonly plannedAgainListeners: (() => void)[] = [];

  constructor(
    private readonly db: Database,
    private readonly engine: PostingEngine,
    private readonly transactions: TransactionRepository,
    private readonly namedTransactions: NamedTransactionRepository,
  ) {}

  /** Called with every group written (for metrics). */
  onGroupWritten(listener: GroupListener): void {
    this.listeners.push(listener);
  }

  /** Called with every group planned again under its locks because its accounts moved (for metrics). */
  onPlannedAgain(listener: () => void): void {
    this.plannedAgainListeners.push(listener);
  }

  /** Requests of the tenant waiting for a group in flight to end. */
  waiting(tenantId: string, lane: GroupLane = 'postings'): number {
    return this.queues.get(`${lane}:${tenantId}`)?.waiting.length ?? 0;
  }

  /** A single posting. Not inside a transaction: the group opens its own. Throws what the request gets wrong. */
  submit<A>({ tenantId, actor, request }: PostTransactionCommand, key: GroupedKey<A>): Promise<GroupedAnswer<A>> {
    const { item, bytes } = sizedItemFromRequest(request, actor, new Date());
    return this.submitRequest(tenantId, 'postings', {
      items: [item],
      bytes,
      key,
      outcome: ([result]) => (result!.status === 'error' ? result!.error : result!.transaction),
    });
  }

  /** A capture, void or reversal: in the postings lane, its item made once what it names is locked. */
  submitNamed<A>(tenantId: string, key: GroupedKey<A>, named: ItemFromNamed): Promise<GroupedAnswer<A>> {
    return this.submitRequest(tenantId, 'postings', {
      items: [],
      named,
      bytes: 0,
      key,
      outcome: ([result]) => (result!.status === 'error' ? result!.error : result!.transaction),
    });
  }

  /**
   * The same, not grouped: in the caller's transaction, or one of its own (the expiry worker, a payment
   * order's saga). Throws what refuses it.
   */
  async writeNamed(tenantId: string, named: ItemFromNamed): Promise<TransactionView> {
    return this.db.transaction('read committed', async () => {
      const target = (await this.namedTransactions.lockAndRead(tenantId, [named.id])).get(named.id);
      const [result] = await this.engine.write(tenantId, [named.make(target)]);
      if (result!.status === 'error') throw result!.error;
      assert.ok(result!.status === 'created', 'what names a transaction is new: that one is locked and unresolved');
      return result!.transaction;
    });
  }

  /** Any request of a lane. Not inside a transaction: the group opens its own. */
  submitRequest<A, Body>(
    tenantId: string,
    lane: GroupLane,
    request: GroupedRequest<A, Body>,
  ): Promise<GroupedAnswer<A>> {
    assert.ok(!this.db.inTransaction, 'a grouped request is written in its group transaction, not the caller one');
    const name = `${lane}:${tenantId}`;
    let queue = this.queues.get(name);
    const size = request.items.length + (request.named === undefined ? 0 : 1);
    if (queue !== undefined && queue.items > 0 && queue.items + size > QUEUED_GROUPS_MAX * LANES[lane].itemsMax)
      throw new DomainError('UNAVAILABLE', 'too many postings are waiting to be written; retry shortly', {
        retryAfterSeconds: 1,
      });
    return new Promise<GroupedAnswer<A>>((resolve, reject) => {
      const names = [`key:${request.key.name}`];
      if (request.named !== undefined) names.push(`transaction:${request.named.id}`);
      const waiting = { ...request, size, names, resolve, reject } as unknown as Waiting;
      if (queue === undefined) {
        queue = { waiting: [], items: 0, inFlight: 0, busyNames: new Set() };
        this.queues.set(name, queue);
      }
      queue.waiting.push(waiting);
      queue.items += size;
      if (queue.inFlight < LANES[lane].groupsInFlight) {
        queue.inFlight++;
        void this.drain(name, tenantId, lane, queue);
      }
    });
  }

  /**
   * Writes the queue's groups one after the other. A group's answers are written to their sockets only
   * once the next group's first statements have left (setImmediate runs after this turn's promise work,
   * in which the next transaction begins), so PostgreSQL claims and locks the next group while Node
   * answers this one, instead of each waiting for the other. Without a next group they are written at once.
   * A group that fails twice is written request by request, each answered as soon as its own write ends.
   */
  private async drain(name: string, tenantId: string, lane: GroupLane, queue: Queue): Promise<void> {
    for (;;) {
      const group = takeGroup(queue.waiting, LANES[lane], queue.busyNames);
      if (group.length === 0) break;
      queue.items -= sizeOf(group);
      for (const waiting of group) for (const taken of waiting.names) queue.busyNames.add(taken);
      const written = await this.attempt(tenantId, lane, group, ['group', 'retry']);
      if (written.ok) {
        const answer = () => answerAll(group, written.settled);
        if (queue.waiting.length > 0) setImmediate(answer);
        else answer();
      } else if (group.length === 1) {
        answerAll(group, [{ ok: false, error: written.error }]);
      } else {
        for (const waiting of group) {
          const alone = await this.attempt(tenantId, lane, [waiting], ['alone']);
          answerAll([waiting], alone.ok ? alone.settled : [{ ok: false, error: alone.error }]);
        }
      }
      for (const waiting of group) for (const taken of waiting.names) queue.busyNames.delete(taken);
    }
    // No await between the empty take and this: a request arriving now starts the next drain.
    queue.inFlight--;
    if (queue.inFlight === 0 && queue.waiting.length === 0) this.queues.delete(name);
  }

  /** The requests' outcomes (not yet answered) from the first attempt that commits, else the last one's error. */
  private async attempt(
    tenantId: string,
    lane: GroupLane,
    group: Waiting[],
    attempts: readonly GroupAttempt[],
  ): Promise<{ ok: true; settled: Settled[] } | { ok: false; error: unknown }> {
    let failure: unknown;
    for (const attempt of attempts) {
      try {
        const settled = await this.writePlanned(tenantId, group, LANES[lane].taking);
        for (const listener of this.listeners)
          listener({ lane, requests: group.length, items: sizeOf(group), attempt });
        return { ok: true, settled };
      } catch (error) {
        failure = error;
      }
    }
    return { ok: false, error: failure };
  }

  /** In a transaction of its own; planned ahead of the locks, and again under them if the accounts moved. */
  private writePlanned(tenantId: string, group: readonly Waiting[], taking: AccountsTaking): Promise<Settled[]> {
    const write = (taken: AccountsTaking) =>
      this.db.transaction('read committed', () => this.write(tenantId, group, taken));
    if (taking === 'locked before planning') return write(taking);
    return plannedAheadThenUnderLocks(write, () => {
      for (const listener of this.plannedAgainListeners) listener();
    });
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
  private async write(tenantId: string, group: readonly Waiting[], taking: AccountsTaking): Promise<Settled[]> {
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
    const posted: { waiting: Waiting; at: number; items: readonly NewItem[] | DomainError }[] = [];
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
