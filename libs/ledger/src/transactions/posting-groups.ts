import assert from 'node:assert/strict';
import { Injectable } from '@nestjs/common';
import { Database, awaitedLater } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import { sizedItemFromRequest } from './new-item';
import type { PostTransactionCommand } from './post-transaction.use-case';
import { type NewItem, PostingEngine } from './posting-engine';
import { TransactionRepository } from './transaction.repository';
import type { TransactionView } from './transaction.view';

/** A group is at most this many postings... */
export const POSTING_GROUP_ITEMS_MAX = 256;
/** ...and at most this much request JSON (a group's first item is taken whatever its size). */
export const POSTING_GROUP_BYTES_MAX = 1024 * 1024;
/**
 * Postings of one tenant waiting for the next groups, at most: beyond it a posting is answered 503
 * (retry shortly) rather than queued behind minutes of work.
 */
export const POSTING_QUEUE_ITEMS_MAX = 16 * POSTING_GROUP_ITEMS_MAX;
/** How far down the queue a group looks for items (past those that wait for an earlier one's key). */
const QUEUE_SCAN_MAX = 4 * POSTING_GROUP_ITEMS_MAX;

/**
 * A posting request's Idempotency-Key, used in the transaction that writes it: a group's, or a batch's
 * (the shape of the idempotency lib's KeyInTransaction; `A` is its outcome, the request's answer, and
 * `Body` what a success stores).
 */
export interface GroupedKey<A, Body = TransactionView> {
  /** Two postings whose keys have the same name are never in one group. */
  readonly name: string;
  /** The same object for every key of a group. */
  readonly steps: GroupedKeySteps<A, Body>;
}

export interface GroupedKeySteps<A, Body = TransactionView> {
  /** Per key: undefined to post it, the answer stored before (a replay), or the error that refuses it. */
  claimAll(keys: readonly GroupedKey<A, Body>[]): Promise<(A | DomainError | undefined)[]>;
  /** Each posting's outcome stored under its key: written (the transaction) or refused (nothing written). */
  storeAll(
    results: readonly ({ key: GroupedKey<A, Body>; body: Body } | { key: GroupedKey<A, Body>; error: DomainError })[],
  ): Promise<A[]>;
}

export interface GroupedAnswer<A> {
  answer: A;
  /** The externalRef named a transaction with the same content that already existed. */
  existing: boolean;
}

/** `group`: the first try; `retry`: the group again after a database error; `alone`: one item after both failed. */
export type GroupAttempt = 'group' | 'retry' | 'alone';

export type GroupListener = (written: { items: number; attempt: GroupAttempt }) => void;

interface Waiting {
  item: NewItem;
  bytes: number;
  key: GroupedKey<unknown>;
  resolve(answer: GroupedAnswer<unknown>): void;
  reject(error: unknown): void;
}

type Settled = { ok: true; value: GroupedAnswer<unknown> } | { ok: false; error: unknown };

/** The next group: the queue's head, then whatever fits, in arrival order, skipping a key already in. */
export function takeGroup<W extends { bytes: number; key: { name: string } }>(queue: W[]): W[] {
  const group: W[] = [];
  const names = new Set<string>();
  let bytes = 0;
  let scanned = 0;
  for (let index = 0; index < queue.length && scanned < QUEUE_SCAN_MAX; scanned++) {
    const waiting = queue[index]!;
    const fits = group.length === 0 || bytes + waiting.bytes <= POSTING_GROUP_BYTES_MAX;
    if (!fits || group.length >= POSTING_GROUP_ITEMS_MAX) break;
    if (names.has(waiting.key.name)) {
      // Its key's first request is in this group: it waits for that one's outcome (then replays it).
      index++;
      continue;
    }
    names.add(waiting.key.name);
    bytes += waiting.bytes;
    group.push(waiting);
    queue.splice(index, 1);
  }
  return group;
}

function answerAll(group: readonly Waiting[], settled: readonly Settled[]): void {
  for (const [offset, outcome] of settled.entries()) {
    if (outcome.ok) group[offset]!.resolve(outcome.value);
    else group[offset]!.reject(outcome.error);
  }
}

/**
 * Group commit for single postings. A posting that finds no group of its tenant in flight is written
 * at once, alone; those that arrive meanwhile queue, and when the transaction in flight ends they are
 * written together as the next group (bounded), in one transaction, through the engine's batch path
 * which plans each item on its own. No timer: nobody waits for a group to fill. Each item keeps its own
 * answer and Idempotency-Key outcome, both settled only once the group committed.
 *
 * A group is one tenant's: one tenant's journal stripe and accounts per transaction, as in a batch.
 * A database error retries the group once; if it fails again, each item is written alone, so one
 * item's failure is its own.
 */
@Injectable()
export class PostingGroups {
  /** Per tenant with a group in flight: who waits for the next one. */
  private readonly queues = new Map<string, Waiting[]>();
  private readonly listeners: GroupListener[] = [];

  constructor(
    private readonly db: Database,
    private readonly engine: PostingEngine,
    private readonly transactions: TransactionRepository,
  ) {}

  /** Called with every group written (for metrics). */
  onGroupWritten(listener: GroupListener): void {
    this.listeners.push(listener);
  }

  /** Postings of the tenant waiting for the group in flight to end. */
  waiting(tenantId: string): number {
    return this.queues.get(tenantId)?.length ?? 0;
  }

  /** Not inside a transaction: the group opens its own. Throws what the request itself gets wrong. */
  submit<A>({ tenantId, actor, request }: PostTransactionCommand, key: GroupedKey<A>): Promise<GroupedAnswer<A>> {
    assert.ok(!this.db.inTransaction, 'a grouped posting is written in its group transaction, not the caller one');
    const { item, bytes } = sizedItemFromRequest(request, actor, new Date());
    if (this.waiting(tenantId) >= POSTING_QUEUE_ITEMS_MAX)
      throw new DomainError('UNAVAILABLE', 'too many postings are waiting to be written; retry shortly', {
        retryAfterSeconds: 1,
      });
    return new Promise<GroupedAnswer<A>>((resolve, reject) => {
      const waiting: Waiting = { item, bytes, key, resolve: resolve as Waiting['resolve'], reject };
      const queue = this.queues.get(tenantId);
      if (queue !== undefined) {
        queue.push(waiting);
        return;
      }
      const started = [waiting];
      this.queues.set(tenantId, started);
      void this.drain(tenantId, started);
    });
  }

  /**
   * Writes the queue's groups one after the other. A group's answers are written to their sockets only
   * once the next group's first statements have left (setImmediate runs after this turn's promise work,
   * in which the next transaction begins), so PostgreSQL claims and locks the next group while Node
   * answers this one, instead of each waiting for the other. Without a next group they are written at once.
   * A group that fails twice is written item by item, each answered as soon as its own write ends.
   */
  private async drain(tenantId: string, queue: Waiting[]): Promise<void> {
    while (queue.length > 0) {
      const group = takeGroup(queue);
      const written = await this.attempt(tenantId, group, ['group', 'retry']);
      if (written.ok) {
        const answer = () => answerAll(group, written.settled);
        if (queue.length > 0) setImmediate(answer);
        else answer();
      } else if (group.length === 1) {
        answerAll(group, [{ ok: false, error: written.error }]);
      } else {
        for (const waiting of group) {
          const alone = await this.attempt(tenantId, [waiting], ['alone']);
          answerAll([waiting], alone.ok ? alone.settled : [{ ok: false, error: alone.error }]);
        }
      }
    }
    // No await between the empty queue and this: a posting arriving now starts the next drain.
    this.queues.delete(tenantId);
  }

  /** The items' outcomes (not yet answered) from the first attempt that commits, else the last one's error. */
  private async attempt(
    tenantId: string,
    group: Waiting[],
    attempts: readonly GroupAttempt[],
  ): Promise<{ ok: true; settled: Settled[] } | { ok: false; error: unknown }> {
    let failure: unknown;
    for (const attempt of attempts) {
      try {
        const settled = await this.db.transaction('read committed', () => this.write(tenantId, group));
        for (const listener of this.listeners) listener({ items: group.length, attempt });
        return { ok: true, settled };
      } catch (error) {
        failure = error;
      }
    }
    return { ok: false, error: failure };
  }

  /**
   * In the group's transaction: the keys claimed, the new postings planned and written together, their
   * outcomes stored under their keys, a fixed number of statements for any group. A refusal (of the
   * key or of the posting) is that item's; anything thrown fails the group's transaction.
   *
   * The statements are sent one behind the other where the next does not depend on the answer before
   * (see awaitedLater): the locks behind the key claims (taken for every item of the group, also one
   * whose key turns out to be a replay), the outcomes behind the write, COMMIT behind the outcomes. So
   * under its locks the group waits for the event loop once, to plan, not six times.
   */
  private async write(tenantId: string, group: readonly Waiting[]): Promise<Settled[]> {
    const { steps } = group[0]!.key;
    assert.ok(
      group.every(({ key }) => key.steps === steps),
      'the keys of a group take the same steps',
    );
    const claiming = awaitedLater(steps.claimAll(group.map(({ key }) => key)));
    const locked = awaitedLater(
      this.engine.lock(
        tenantId,
        group.map(({ item }) => item),
      ),
    );
    const settled: Settled[] = new Array(group.length);
    const posted: number[] = [];
    for (const [offset, claim] of (await claiming).entries()) {
      if (claim === undefined) posted.push(offset);
      else if (claim instanceof DomainError) settled[offset] = { ok: false, error: claim };
      else settled[offset] = { ok: true, value: { answer: claim, existing: false } };
    }
    if (posted.length === 0) {
      await locked;
      return settled;
    }
    const { results, written } = await this.engine.send(
      tenantId,
      posted.map((offset) => group[offset]!.item),
      locked,
    );
    const outcomes = [];
    for (const [index, result] of results.entries()) {
      const { key } = group[posted[index]!]!;
      if (result.status === 'error') outcomes.push({ key, error: result.error });
      else if (result.status === 'created') outcomes.push({ key, body: result.transaction });
      else {
        await written;
        const transaction = await this.transactions.findById(tenantId, result.transactionId);
        assert.ok(transaction !== undefined, 'an externalRef names a transaction of the tenant');
        outcomes.push({ key, body: transaction });
      }
    }
    const storing = awaitedLater(steps.storeAll(outcomes));
    this.db.commitBehindSent();
    await written;
    const answers = await storing;
    for (const [index, answer] of answers.entries()) {
      const existing = results[index]!.status === 'exists';
      settled[posted[index]!] = { ok: true, value: { answer, existing } };
    }
    return settled;
  }
}
