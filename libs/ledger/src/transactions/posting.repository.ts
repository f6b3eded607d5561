import assert from 'node:assert/strict';
import { Injectable } from '@nestjs/common';
import { Database, sqlErrorFields } from '@ledger/db';
import { isUuid } from '@ledger/ids';
import { DomainError } from '@ledger/errors';
import type { AccountDelta, AccountTouch, LockedAccount, PlannedEntry } from '../domain/posting-plan';
import { type NewEvent, outboxInsertParams } from '@ledger/outbox';
import {
  FIND_EXTERNAL_REFS,
  type JournalParams,
  LOCK_NAMES,
  LOCK_FOR_POSTING,
  type AccountRow,
  type PostingsParams,
  READ_ACCOUNTS_AHEAD,
  WRITE_BATCH,
  WRITE_JOURNAL,
  WRITE_POSTINGS,
} from './posting.sql';
import type { TransactionStatus } from './transaction.view';

/** Each tenant's journal is this many hash chains (the migration creates them). */
export const JOURNAL_STRIPES = 16;

export interface TransactionRow {
  id: string;
  status: TransactionStatus;
  externalRef: string | null;
  contentHash: Buffer;
  description: string | null;
  metadata: Record<string, unknown>;
  effectiveAt: Date;
  createdAt: Date;
  expiresAt: Date | null;
  holdId: string | null;
  reversesId: string | null;
  /** Who made it: `api-key:<id>`, `cli:<user>`, `expiry`, `inbound:<source id>`, ... */
  actor: string;
}

export interface JournalStripe {
  stripe: number;
  seq: bigint;
  hash: Buffer;
}

export interface JournalLink {
  seq: bigint;
  transactionId: string;
  previousHash: Buffer;
  hash: Buffer;
}

export interface PostingsWrite {
  transactions: readonly { row: TransactionRow; entries: readonly PlannedEntry[]; touches: readonly AccountTouch[] }[];
  deltas: readonly AccountDelta[];
  openedHolds: readonly { holdId: string; expiresAt: Date }[];
  closedHoldIds: readonly string[];
}

export interface JournalWrite {
  stripe: JournalStripe;
  links: readonly JournalLink[];
  encodingVersion: number;
  events: readonly NewEvent[];
}

export interface PostingLocks {
  accounts: LockedAccount[];
  /** Undefined when no account of the batch exists (nothing can be written). */
  stripe: JournalStripe | undefined;
}

/**
 * A write planned on accounts read before their locks found that another posting had moved them so
 * that an item no longer passes: the batch is planned again under the locks, in a new transaction.
 */
export class PlanOutdatedError extends Error {
  constructor() {
    super('the accounts moved between the plan and the locks');
  }
}

/** How the postings' plan was made: under the accounts' locks, or on a read made before them. */
export type PlannedOn = 'locked accounts' | 'accounts read ahead';

/**
 * The database's own checks, met only if a plan was wrong or raced: still the client's error codes.
 * A plan made ahead of the locks meets them when the accounts moved: that is no client's error.
 */
function translateWriteError(error: unknown, plannedOn: PlannedOn): unknown {
  const sql = sqlErrorFields(error);
  const finalTotalBelowZero = sql?.code === '23514' && sql.constraint === 'accounts_available_non_negative';
  if ((finalTotalBelowZero || sql?.code === 'LG004') && plannedOn === 'accounts read ahead') {
    return new PlanOutdatedError();
  }
  if (finalTotalBelowZero) return new DomainError('INSUFFICIENT_FUNDS', 'an account would go below zero');
  if (sql?.code === '23505' && sql.constraint === 'transactions_one_resolution_per_hold') {
    return new DomainError('HOLD_ALREADY_RESOLVED', 'the hold is already resolved');
  }
  if (sql?.code === '23505' && sql.constraint === 'transactions_one_reversal') {
    return new DomainError('ALREADY_REVERSED', 'the transaction is already reversed');
  }
  if (sql?.code === 'LG001') return new DomainError('UNBALANCED', sql.message);
  if (sql?.code === '22003')
    return new DomainError('AMOUNT_OUT_OF_RANGE', 'a balance would exceed the largest amount the ledger holds');
  return error;
}

/**
 * The postings' parameters (see POSTINGS_CTES), each column filled in one pass (a batch has up to
 * thousands of entries). An entry's transaction and account are their 1-based places in the
 * transaction rows and in the deltas.
 */
function postingsParams(tenantId: string, batch: PostingsWrite): PostingsParams {
  const { deltas } = batch;
  const rows = batch.transactions.map(({ row }) => row);
  const params: PostingsParams = {
    tenantId,
    transactionIds: rows.map((row) => row.id),
    statuses: rows.map((row) => row.status),
    externalRefs: rows.map((row) => row.externalRef),
    contentHashes: rows.map((row) => row.contentHash),
    descriptions: rows.map((row) => row.description),
    metadata: rows.map((row) => JSON.stringify(row.metadata)),
    effectiveAts: rows.map((row) => row.effectiveAt),
    createdAts: rows.map((row) => row.createdAt),
    expiresAts: rows.map((row) => row.expiresAt),
    holdIds: rows.map((row) => row.holdId),
    reversesIds: rows.map((row) => row.reversesId),
    actors: rows.map((row) => row.actor),
    accountIds: deltas.map((delta) => delta.accountId),
    postedDebits: deltas.map((delta) => delta.postedDebits),
    postedCredits: deltas.map((delta) => delta.postedCredits),
    pendingDebits: deltas.map((delta) => delta.pendingDebits),
    pendingCredits: deltas.map((delta) => delta.pendingCredits),
    versions: deltas.map((delta) => delta.versions),
    entryTransactionIndexes: [],
    entryLegs: [],
    entryAccountIndexes: [],
    entryDirections: [],
    entryPending: [],
    entryAmountsMinor: [],
    entryCurrencies: [],
    touchTransactionIndexes: [],
    touchAccountIndexes: [],
    touchPostedChanges: [],
    touchAvailableChanges: [],
    openedHoldIds: batch.openedHolds.map((hold) => hold.holdId),
    openedHoldExpiresAts: batch.openedHolds.map((hold) => hold.expiresAt),
    closedHoldIds: batch.closedHoldIds,
  };
  const accountIndexes = new Map(deltas.map((delta, offset) => [delta.accountId, offset + 1]));
  const accountIndexOf = (accountId: string) => {
    const accountIndex = accountIndexes.get(accountId);
    assert.ok(accountIndex !== undefined, 'every entry and touch names an account of the deltas');
    return accountIndex;
  };
  for (const [offset, { entries, touches }] of batch.transactions.entries()) {
    for (const entry of entries) {
      params.entryTransactionIndexes.push(offset + 1);
      params.entryLegs.push(entry.leg);
      params.entryAccountIndexes.push(accountIndexOf(entry.accountId));
      params.entryDirections.push(entry.direction);
      params.entryPending.push(entry.pending);
      params.entryAmountsMinor.push(entry.amountMinor);
      params.entryCurrencies.push(entry.currency);
    }
    for (const touch of touches) {
      params.touchTransactionIndexes.push(offset + 1);
      params.touchAccountIndexes.push(accountIndexOf(touch.accountId));
      params.touchPostedChanges.push(touch.postedChange);
      params.touchAvailableChanges.push(touch.availableChange);
    }
  }
  return params;
}

/** Account references split as the locking and reading statements take them: ids and codes. */
function idsAndCodesOf(refs: Iterable<string>): { accountIds: string[]; accountCodes: string[] } {
  const unique = [...new Set(refs)];
  return {
    accountIds: unique.filter(isUuid).map((ref) => ref.toLowerCase()),
    accountCodes: unique.filter((ref) => !isUuid(ref)),
  };
}

function accountOf(row: AccountRow): LockedAccount {
  return {
    id: row.id,
    code: row.code,
    currency: row.currency,
    normalBalance: row.normal_balance,
    allowNegative: row.allow_negative,
    postedDebits: row.posted_debits,
    postedCredits: row.posted_credits,
    pendingDebits: row.pending_debits,
    pendingCredits: row.pending_credits,
    version: row.version,
  };
}

/** The parameters of the journal's CTES and of the outbox insert (see JOURNAL_CTES). */
function journalParams(tenantId: string, journal: JournalWrite): JournalParams {
  const { stripe, links } = journal;
  const head = links.at(-1);
  assert.ok(head !== undefined, 'a journal write links at least one transaction');
  return {
    tenantId,
    stripe: stripe.stripe,
    encodingVersion: journal.encodingVersion,
    linkSeqs: links.map((link) => link.seq),
    linkTransactionIds: links.map((link) => link.transactionId),
    linkPreviousHashes: links.map((link) => link.previousHash),
    linkHashes: links.map((link) => link.hash),
    headSeq: head.seq,
    headHash: head.hash,
    ...outboxInsertParams(journal.events),
  };
}

@Injectable()
export class PostingRepository {
  constructor(private readonly db: Database) {}

  async lockExternalRefs(tenantId: string, refs: readonly string[]): Promise<void> {
    assert.ok(this.db.inTransaction, 'posting locks are held by a transaction');
    if (refs.length > 0) await this.db.query(LOCK_NAMES, { tenantId, kind: 'ref', names: [...new Set(refs)] });
  }

  async findExternalRefs(tenantId: string, refs: readonly string[]) {
    if (refs.length === 0) return new Map<string, { id: string; contentHash: Buffer }>();
    const rows = await this.db.query(FIND_EXTERNAL_REFS, { tenantId, refs: [...new Set(refs)] });
    return new Map(rows.map((row) => [row.external_ref, { id: row.id, contentHash: Buffer.from(row.content_hash) }]));
  }

  /** The batch's accounts, locked in id order, and a journal stripe (see LOCK_FOR_POSTING). */
  async lockForPosting(tenantId: string, refs: Iterable<string>): Promise<PostingLocks> {
    assert.ok(this.db.inTransaction, 'posting locks are held by a transaction');
    const firstStripe = Math.floor(Math.random() * JOURNAL_STRIPES);
    const rows = await this.db.query(LOCK_FOR_POSTING, { tenantId, ...idsAndCodesOf(refs), firstStripe });
    const head = rows[0];
    return {
      accounts: rows.map(accountOf),
      stripe:
        head === undefined
          ? undefined
          : { stripe: head.stripe, seq: head.stripe_seq, hash: Buffer.from(head.stripe_hash) },
    };
  }

  /** The batch's accounts as they are now, without their locks (see READ_ACCOUNTS_AHEAD). */
  async readAccountsAhead(tenantId: string, refs: Iterable<string>): Promise<LockedAccount[]> {
    const rows = await this.db.query(READ_ACCOUNTS_AHEAD, { tenantId, ...idsAndCodesOf(refs) });
    return rows.map(accountOf);
  }

  /** The postings alone; WRITE_JOURNAL follows with the journal links and events. */
  async writePostings(tenantId: string, batch: PostingsWrite, plannedOn: PlannedOn): Promise<void> {
    await this.db.query(WRITE_POSTINGS, postingsParams(tenantId, batch)).catch((error: unknown) => {
      throw translateWriteError(error, plannedOn);
    });
  }

  async writeJournal(tenantId: string, journal: JournalWrite): Promise<void> {
    await this.db.query(WRITE_JOURNAL, journalParams(tenantId, journal));
  }

  /** Postings, journal links and events in one statement, planned under the accounts' locks. */
  async writeBatch(tenantId: string, batch: PostingsWrite, journal: JournalWrite): Promise<void> {
    const params = { ...postingsParams(tenantId, batch), ...journalParams(tenantId, journal) };
    await this.db.query(WRITE_BATCH, params).catch((error: unknown) => {
      throw translateWriteError(error, 'locked accounts');
    });
  }
}
