import assert from 'node:assert/strict';
import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import { type GroupLane, LANES, QUEUED_GROUPS_MAX, takeGroup } from './group-lanes';
import { GroupTransaction, type Settled } from './group-transaction';
import type { GroupedAnswer, GroupedKey, GroupedRequest, ItemFromNamed, WrittenItem } from './grouped-request';
import { NamedTransactionRepository } from './named-transaction.repository';
import { sizedItemFromRequest } from './new-item';
import type { PostTransactionCommand } from './post-transaction.use-case';
import { PostingEngine } from './posting-engine';
import type { TransactionView } from './transaction.view';

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

function answerAll(group: readonly Waiting[], settled: readonly Settled[]): void {
  for (const [offset, outcome] of settled.entries()) {
    if (outcome.ok) group[offset]!.resolve(outcome.value);
    else group[offset]!.reject(outcome.error);
  }
}

/** A request of one item: its transaction, or what refused it. */
function oneItemOutcome([result]: readonly WrittenItem[]): TransactionView | DomainError {
  return result!.status === 'error' ? result!.error : result!.transaction;
}

function sizeOf(group: readonly Waiting[]): number {
  return group.reduce((size, waiting) => size + waiting.size, 0);
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
    private readonly namedTransactions: NamedTransactionRepository,
    private readonly groupTransaction: GroupTransaction,
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
      outcome: oneItemOutcome,
    });
  }

  /** A capture, void or reversal: in the postings lane, its item made once what it names is locked. */
  submitNamed<A>(tenantId: string, key: GroupedKey<A>, named: ItemFromNamed): Promise<GroupedAnswer<A>> {
    return this.submitRequest(tenantId, 'postings', {
      items: [],
      named,
      bytes: 0,
      key,
      outcome: oneItemOutcome,
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
        const settled = await this.groupTransaction.writePlanned(tenantId, group, LANES[lane].taking, () => {
          for (const listener of this.plannedAgainListeners) listener();
        });
        for (const listener of this.listeners)
          listener({ lane, requests: group.length, items: sizeOf(group), attempt });
        return { ok: true, settled };
      } catch (error) {
        failure = error;
      }
    }
    return { ok: false, error: failure };
  }
}
