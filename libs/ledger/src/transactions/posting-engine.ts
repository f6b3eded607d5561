import assert from 'node:assert/strict';
import { Injectable } from '@nestjs/common';
import { awaitedLater } from '@ledger/db';
import { canonicalJson, sha256 } from '@ledger/ids';
import { DomainError } from '@ledger/errors';
import type { EventType, NewEvent } from '@ledger/outbox';
import { JOURNAL_ENCODING_VERSION, chainHash, encodeJournalRecord } from '../domain/journal-encoding';
import { type PlannedEntry, PostingPlanner, type ReleasedLeg } from '../domain/posting-plan';
import type { DraftLeg } from '../domain/transaction-draft';
import {
  type JournalLink,
  type JournalStripe,
  type JournalWrite,
  type PostingLocks,
  PostingRepository,
  type PostingsWrite,
  type TransactionRow,
} from './posting.repository';
import type { TransactionView } from './transaction.view';

/** One transaction to write: a posting, a hold, a capture, a void/expiry record or a reversal. */
export interface NewItem extends TransactionRow {
  legs: readonly DraftLeg[];
  releases: readonly ReleasedLeg[];
  event: EventType;
}

export type ItemResult =
  | { status: 'created'; transaction: TransactionView }
  | { status: 'exists'; transactionId: string }
  | { status: 'error'; error: DomainError };

interface Created {
  index: number;
  item: NewItem;
  entries: PlannedEntry[];
}

export function descriptionDigest(row: Pick<TransactionRow, 'externalRef' | 'description' | 'metadata'>): Buffer {
  return sha256(canonicalJson({ externalRef: row.externalRef, description: row.description, metadata: row.metadata }));
}

function chain(tenantId: string, created: readonly Created[], stripe: JournalStripe): JournalLink[] {
  let previousHash = stripe.hash;
  return created.map(({ item, entries }, offset) => {
    const encoding = encodeJournalRecord({
      tenantId,
      transactionId: item.id,
      status: item.status,
      effectiveAt: item.effectiveAt,
      createdAt: item.createdAt,
      holdId: item.holdId,
      reversesId: item.reversesId,
      expiresAt: item.expiresAt,
      descriptionDigest: descriptionDigest(item),
      entries,
    });
    const link = {
      seq: stripe.seq + BigInt(offset + 1),
      transactionId: item.id,
      previousHash,
      hash: chainHash(previousHash, encoding),
    };
    previousHash = link.hash;
    return link;
  });
}

function view(created: Created, link: JournalLink, stripe: number): TransactionView {
  const { item, entries } = created;
  return {
    id: item.id,
    status: item.status,
    externalRef: item.externalRef,
    description: item.description,
    metadata: item.metadata,
    effectiveAt: item.effectiveAt.toISOString(),
    createdAt: item.createdAt.toISOString(),
    expiresAt: item.expiresAt?.toISOString() ?? null,
    holdId: item.holdId,
    reversesId: item.reversesId,
    actor: item.actor,
    reversedById: null,
    resolution: null,
    entries: entries.map((entry) => ({
      leg: entry.leg,
      accountId: entry.accountId,
      accountCode: entry.accountCode,
      direction: entry.direction,
      pending: entry.pending,
      amount: entry.amountMinor.toString(),
      currency: entry.currency,
    })),
    journal: { stripe, seq: link.seq.toString(), hash: link.hash.toString('hex') },
  };
}

/**
 * From this many created items on, the postings are written while Node builds the journal links,
 * views and events, and those follow in a second statement; below it, that work costs less than the
 * second round trip under the locks, and one statement writes everything.
 */
const OVERLAPPED_WRITE_ITEMS_MIN = 64;

/**
 * A hold's story is one aggregate: the hold (version 1) and its resolution (version 2); every other
 * transaction is an aggregate of its own.
 */
function eventOf(item: NewItem, transaction: TransactionView): NewEvent {
  const aggregateId = item.holdId ?? item.id;
  return {
    type: item.event,
    aggregateType: 'transaction',
    aggregateId,
    aggregateVersion: item.holdId ? 2n : 1n,
    data: { transaction },
  };
}

/** The journal links of the created items, their views, and the statement's part that writes links and events. */
function journalOf(
  tenantId: string,
  created: readonly Created[],
  stripe: JournalStripe,
): { views: TransactionView[]; write: JournalWrite } {
  const links = chain(tenantId, created, stripe);
  const views = created.map((entry, offset) => view(entry, links[offset]!, stripe.stripe));
  const events = created.map(({ item }, offset) => eventOf(item, views[offset]!));
  return { views, write: { stripe, links, encodingVersion: JOURNAL_ENCODING_VERSION, events } };
}

/** What a write holds before it plans: the items' external references and accounts, locked. */
export interface PostingLocksTaken {
  claimedRefs: Map<string, { id: string; contentHash: Buffer }>;
  locks: PostingLocks;
}

/** The items' results, final once `written` resolves (it rejects if the write failed). */
export interface SentWrite {
  results: ItemResult[];
  written: Promise<void>;
}

/**
 * Writes any number of transactions in one database transaction with a fixed number of statements:
 * external references locked and checked, accounts and a journal stripe locked, every item planned in
 * order (each fails alone), then one or two statements for all rows, journal links and events.
 */
@Injectable()
export class PostingEngine {
  constructor(private readonly postings: PostingRepository) {}

  async write(tenantId: string, items: readonly NewItem[]): Promise<ItemResult[]> {
    const { results, written } = await this.send(tenantId, items, this.lock(tenantId, items));
    await written;
    return results;
  }

  /**
   * Locks what the items name, the three statements sent one behind the other (see awaitedLater); the
   * external references' look-up runs once their locks are held, so it sees what committed meanwhile.
   * The locks may cover more items than are then written.
   */
  async lock(tenantId: string, items: readonly NewItem[]): Promise<PostingLocksTaken> {
    const refs = items.flatMap((item) => (item.externalRef ? [item.externalRef] : []));
    const accountRefs = items.flatMap((item) => [
      ...item.legs.map((leg) => leg.account),
      ...item.releases.map((release) => release.accountId),
    ]);
    const refsLocked = awaitedLater(this.postings.lockExternalRefs(tenantId, refs));
    const refsFound = awaitedLater(this.postings.findExternalRefs(tenantId, refs));
    const accountsLocked = awaitedLater(this.postings.lockForPosting(tenantId, accountRefs));
    await refsLocked;
    return { claimedRefs: await refsFound, locks: await accountsLocked };
  }

  /**
   * Plans the items under the locks and sends their write: the results are known before it is done,
   * so the caller can send its next statement behind it; it must await `written`.
   */
  async send(tenantId: string, items: readonly NewItem[], locked: Promise<PostingLocksTaken>): Promise<SentWrite> {
    const { claimedRefs, locks } = await locked;
    const planner = new PostingPlanner(locks.accounts);
    const results: (ItemResult | undefined)[] = [];
    const created: Created[] = [];
    for (const [index, item] of items.entries()) {
      const claimed = item.externalRef ? claimedRefs.get(item.externalRef) : undefined;
      if (claimed) {
        results.push(
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
      const plan = planner.plan({ pending: item.status === 'pending', legs: item.legs, releases: item.releases });
      if (!plan.ok) {
        results.push({ status: 'error', error: plan.error });
        continue;
      }
      if (item.externalRef) claimedRefs.set(item.externalRef, { id: item.id, contentHash: item.contentHash });
      created.push({ index, item, entries: plan.entries });
      results.push(undefined);
    }
    const written =
      created.length > 0
        ? awaitedLater(this.sendCreated(tenantId, { planner, stripe: locks.stripe! }, created, results))
        : Promise.resolve();
    return {
      results: results.map((result) => {
        assert.ok(result !== undefined, 'every item has a result');
        return result;
      }),
      written,
    };
  }

  /**
   * Under the locks. A small batch is written in one statement, its journal links, views and events
   * built first (little work). A large one in two: the postings need only the plans, so they are sent
   * first; while PostgreSQL writes them, Node hashes the journal links and builds the views and
   * events, work that would otherwise hold the locks on its own. The journal statement then follows
   * the postings on the connection (written at once, run by the server after them; see awaitedLater);
   * if the postings fail, it fails with them and the postings' error is the one reported. Returns once
   * the results are set and the statements sent; the promise settles when they are done.
   */
  private sendCreated(
    tenantId: string,
    { planner, stripe }: { planner: PostingPlanner; stripe: JournalStripe },
    created: Created[],
    results: (ItemResult | undefined)[],
  ): Promise<void> {
    const postings: PostingsWrite = {
      transactions: created.map(({ item, entries }) => ({ row: item, entries })),
      deltas: planner.accountDeltas(),
      openedHolds: created.flatMap(({ item }) =>
        item.status === 'pending' ? [{ holdId: item.id, expiresAt: item.expiresAt! }] : [],
      ),
      closedHoldIds: created.flatMap(({ item }) => (item.holdId ? [item.holdId] : [])),
    };
    let views: TransactionView[];
    let written: Promise<void>;
    if (created.length < OVERLAPPED_WRITE_ITEMS_MIN) {
      const journal = journalOf(tenantId, created, stripe);
      views = journal.views;
      written = this.postings.writeBatch(tenantId, postings, journal.write);
    } else {
      const postingsWritten = awaitedLater(this.postings.writePostings(tenantId, postings));
      const journal = journalOf(tenantId, created, stripe);
      views = journal.views;
      const linked = awaitedLater(this.postings.writeJournal(tenantId, journal.write));
      written = postingsWritten.then(() => linked);
    }
    created.forEach((entry, offset) => {
      results[entry.index] = { status: 'created', transaction: views[offset]! };
    });
    return written;
  }
}
