import assert from 'node:assert/strict';
import { Injectable } from '@nestjs/common';
import { awaitedLater } from '@ledger/db';
import { canonicalJson, sha256 } from '@ledger/ids';
import type { NewEvent } from '@ledger/outbox';
import { JOURNAL_ENCODING_VERSION, chainHash, encodeJournalRecord } from '../domain/journal-encoding';
import type { LockedAccount } from '../domain/posting-plan';
import {
  type JournalLink,
  type JournalStripe,
  type JournalWrite,
  PlanOutdatedError,
  type PostingLocks,
  PostingRepository,
  type TransactionRow,
} from './posting.repository';
import type { TransactionView } from './transaction.view';
import type { NewItem } from './new-item';
import {
  type ClaimedRef,
  type Created,
  type ItemResult,
  type PlannedItems,
  accountRefsOf,
  planItems,
  postingsOf,
  resultsOf,
} from './planned-items';

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

/**
 * How a write takes its accounts. Under their locks, before it plans: what single postings, holds and
 * their resolutions do (a group keeps one write of a tenant in flight per process, so nothing waits
 * for its locks). Read ahead of the locks: a batch plans on that read and sends the locks and its
 * postings together, so Node's planning is no longer time in which other batches wait for the
 * accounts; the write checks that the plan still holds on the accounts as locked (see POSTINGS_CTES).
 */
export type AccountsTaking = 'locked before planning' | 'read ahead of the locks';

/**
 * A write planned on its accounts read ahead of their locks, and, if another posting moved them so that
 * the plan no longer holds, planned again under the locks in a new transaction (`attempt` opens it; the
 * first one rolled back).
 */
export async function plannedAheadThenUnderLocks<T>(
  attempt: (taking: AccountsTaking) => Promise<T>,
  onPlannedAgain: () => void = () => {},
): Promise<T> {
  try {
    return await attempt('read ahead of the locks');
  } catch (error) {
    if (!(error instanceof PlanOutdatedError)) throw error;
    onPlannedAgain();
    return attempt('locked before planning');
  }
}

/** What a write holds before it plans: the items' external references locked and looked up, and its accounts. */
export interface PostingLocksTaken {
  claimedRefs: Map<string, ClaimedRef>;
  /** Under their locks with a journal stripe; or read ahead of them, with the references they were read by. */
  accounts: { locked: PostingLocks } | { readAhead: LockedAccount[]; refs: string[] };
}

/** The items' results, final once `written` resolves (it rejects if the write failed). */
export interface SentWrite {
  results: ItemResult[];
  written: Promise<void>;
}

/**
 * Writes any number of transactions in one database transaction with a fixed number of statements:
 * external references locked and checked, accounts and a journal stripe locked, every item planned in
 * order (each fails alone), then one or two statements for all rows, journal links and events. A
 * batch may plan on its accounts read before their locks and send the locks with its write (see
 * AccountsTaking).
 */
@Injectable()
export class PostingEngine {
  constructor(private readonly postings: PostingRepository) {}

  async write(
    tenantId: string,
    items: readonly NewItem[],
    taking: AccountsTaking = 'locked before planning',
  ): Promise<ItemResult[]> {
    const { results, written } = await this.send(tenantId, items, this.lock(tenantId, items, taking));
    await written;
    return results;
  }

  /**
   * Locks what the items name, the three statements sent one behind the other (see awaitedLater); the
   * external references' look-up runs once their locks are held, so it sees what committed meanwhile.
   * Read ahead of the locks, the accounts are only read. The locks may cover more items than are then
   * written.
   */
  async lock(
    tenantId: string,
    items: readonly NewItem[],
    taking: AccountsTaking = 'locked before planning',
  ): Promise<PostingLocksTaken> {
    const refs = items.flatMap((item) => (item.externalRef ? [item.externalRef] : []));
    const refsLocked = awaitedLater(this.postings.lockExternalRefs(tenantId, refs));
    const refsFound = awaitedLater(this.postings.findExternalRefs(tenantId, refs));
    const accountRefs = accountRefsOf(items);
    const accountsTaken = awaitedLater<PostingLocksTaken['accounts']>(
      taking === 'locked before planning'
        ? this.postings.lockForPosting(tenantId, accountRefs).then((locked) => ({ locked }))
        : this.postings
            .readAccountsAhead(tenantId, accountRefs)
            .then((readAhead) => ({ readAhead, refs: accountRefs })),
    );
    await refsLocked;
    return { claimedRefs: await refsFound, accounts: await accountsTaken };
  }

  /**
   * Plans the items and sends their write: the results are known before it is done, so the caller can
   * send its next statement behind it; it must await `written`. Planned on accounts read ahead of their
   * locks, `written` rejects with PlanOutdatedError if the accounts moved so that the plan no longer
   * holds; a plan that refused an item on that read is made again under the locks, where the item
   * might pass, or let a later one pass.
   */
  async send(tenantId: string, items: readonly NewItem[], locked: Promise<PostingLocksTaken>): Promise<SentWrite> {
    const { claimedRefs, accounts } = await locked;
    if ('locked' in accounts)
      return this.sendPlanned(
        tenantId,
        planItems(items, claimedRefs, accounts.locked.accounts),
        accounts.locked.stripe,
      );
    const ahead = planItems(items, new Map(claimedRefs), accounts.readAhead);
    if (ahead.refusedByPlan > 0) {
      const locks = await this.postings.lockForPosting(tenantId, accounts.refs);
      return this.sendPlanned(tenantId, planItems(items, claimedRefs, locks.accounts), locks.stripe);
    }
    if (ahead.created.length === 0) return this.sendPlanned(tenantId, ahead, undefined);
    return this.sendPlannedAhead(tenantId, accounts.refs, ahead);
  }

  private sendPlanned(tenantId: string, planned: PlannedItems, stripe: JournalStripe | undefined): SentWrite {
    if (planned.created.length === 0) return { results: resultsOf(planned, []), written: Promise.resolve() };
    assert.ok(stripe !== undefined, 'a write that creates transactions has locked accounts and a stripe');
    const { views, written } = this.sendCreated(tenantId, planned, stripe);
    return { results: resultsOf(planned, views), written };
  }

  /**
   * The accounts' locks and the postings sent together; the journal links, views and events are
   * built once the locks (and the journal stripe taken after them) are held, while PostgreSQL writes
   * the postings, and the journal statement follows them.
   */
  private async sendPlannedAhead(tenantId: string, accountRefs: string[], planned: PlannedItems): Promise<SentWrite> {
    const accountsLocked = awaitedLater(this.postings.lockForPosting(tenantId, accountRefs));
    const postingsWritten = awaitedLater(
      this.postings.writePostings(tenantId, postingsOf(planned), 'accounts read ahead'),
    );
    const { stripe } = await accountsLocked;
    assert.ok(stripe !== undefined, 'a plan that created transactions found their accounts');
    const { views, written } = this.linkBehind(tenantId, planned.created, stripe, postingsWritten);
    return { results: resultsOf(planned, views), written };
  }

  /**
   * Under the locks. A small batch is written in one statement, its journal links, views and events
   * built first (little work). A large one in two: the postings need only the plans, so they are sent
   * first; while PostgreSQL writes them, Node hashes the journal links and builds the views and
   * events, work that would otherwise hold the locks on its own. The journal statement then follows
   * the postings on the connection (written at once, run by the server after them; see awaitedLater);
   * if the postings fail, it fails with them and the postings' error is the one reported. Returns once
   * the statements are sent; `written` settles when they are done.
   */
  private sendCreated(
    tenantId: string,
    planned: PlannedItems,
    stripe: JournalStripe,
  ): { views: TransactionView[]; written: Promise<void> } {
    const postings = postingsOf(planned);
    if (planned.created.length < OVERLAPPED_WRITE_ITEMS_MIN) {
      const journal = journalOf(tenantId, planned.created, stripe);
      return {
        views: journal.views,
        written: awaitedLater(this.postings.writeBatch(tenantId, postings, journal.write)),
      };
    }
    const postingsWritten = awaitedLater(this.postings.writePostings(tenantId, postings, 'locked accounts'));
    return this.linkBehind(tenantId, planned.created, stripe, postingsWritten);
  }

  /**
   * Builds the journal links, views and events while PostgreSQL writes the postings already sent, and
   * sends the journal statement behind them; `written` settles when both are done.
   */
  private linkBehind(
    tenantId: string,
    created: readonly Created[],
    stripe: JournalStripe,
    postingsWritten: Promise<void>,
  ): { views: TransactionView[]; written: Promise<void> } {
    const journal = journalOf(tenantId, created, stripe);
    const linked = awaitedLater(this.postings.writeJournal(tenantId, journal.write));
    return { views: journal.views, written: awaitedLater(postingsWritten.then(() => linked)) };
  }
}
