import assert from 'node:assert/strict';
import { Injectable } from '@nestjs/common';
import { type SqlExecutor, sqlErrorFields } from '@ledger/db';
import { isUuid } from '@ledger/ids';
import { DomainError } from '@ledger/errors';
import type { Side } from '../domain/balances';
import type { AccountDelta, LockedAccount, PlannedEntry } from '../domain/posting-plan';
import { type NewEvent, outboxInsertParams } from '@ledger/outbox';
import {
  FIND_EXTERNAL_REFS,
  LOCK_EXTERNAL_REFS,
  LOCK_FOR_POSTING,
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
  transactions: readonly { row: TransactionRow; entries: readonly PlannedEntry[] }[];
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

interface LockedAccountRow {
  id: string;
  code: string;
  currency: string;
  normal_balance: Side;
  allow_negative: boolean;
  posted_debits: bigint;
  posted_credits: bigint;
  pending_debits: bigint;
  pending_credits: bigint;
  version: bigint;
  stripe: number;
  stripe_seq: bigint;
  stripe_hash: Uint8Array;
}

/**
 * The database's own checks, met only if a plan was wrong or raced: still the client's error codes.
 */
function translateWriteError(error: unknown): unknown {
  const sql = sqlErrorFields(error);
  if (sql?.code === '23514' && sql.constraint === 'accounts_available_non_negative') {
    return new DomainError('INSUFFICIENT_FUNDS', 'an account would go below zero');
  }
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
 * The entries' columns of the postings, filled in one pass (a batch has up to thousands). An entry's
 * transaction and account are their 1-based places in the transaction rows and in the deltas.
 */
function entryColumns(batch: PostingsWrite) {
  const accountIndexes = new Map(batch.deltas.map((delta, offset) => [delta.accountId, offset + 1]));
  const columns = {
    transactionIndexes: [] as number[],
    legs: [] as number[],
    accountIndexes: [] as number[],
    directions: [] as Side[],
    pending: [] as boolean[],
    amountsMinor: [] as bigint[],
    currencies: [] as string[],
    accountVersions: [] as bigint[],
    postedBalancesAfter: [] as bigint[],
  };
  for (const [offset, { entries }] of batch.transactions.entries()) {
    for (const entry of entries) {
      const accountIndex = accountIndexes.get(entry.accountId);
      assert.ok(accountIndex !== undefined, 'every entry moves an account of the deltas');
      columns.transactionIndexes.push(offset + 1);
      columns.legs.push(entry.leg);
      columns.accountIndexes.push(accountIndex);
      columns.directions.push(entry.direction);
      columns.pending.push(entry.pending);
      columns.amountsMinor.push(entry.amountMinor);
      columns.currencies.push(entry.currency);
      columns.accountVersions.push(entry.accountVersion);
      columns.postedBalancesAfter.push(entry.postedBalanceAfter);
    }
  }
  return columns;
}

/** The parameters of the postings' CTEs (see POSTINGS_CTES), after the tenant id. */
function postingsParams(batch: PostingsWrite): unknown[] {
  const { deltas } = batch;
  const rows = batch.transactions.map(({ row }) => row);
  const entries = entryColumns(batch);
  return [
    rows.map((row) => row.id),
    rows.map((row) => row.status),
    rows.map((row) => row.externalRef),
    rows.map((row) => row.contentHash),
    rows.map((row) => row.description),
    rows.map((row) => JSON.stringify(row.metadata)),
    rows.map((row) => row.effectiveAt),
    rows.map((row) => row.createdAt),
    rows.map((row) => row.expiresAt),
    rows.map((row) => row.holdId),
    rows.map((row) => row.reversesId),
    deltas.map((delta) => delta.accountId),
    deltas.map((delta) => delta.postedDebits),
    deltas.map((delta) => delta.postedCredits),
    deltas.map((delta) => delta.pendingDebits),
    deltas.map((delta) => delta.pendingCredits),
    deltas.map((delta) => delta.versions),
    entries.transactionIndexes,
    entries.legs,
    entries.accountIndexes,
    entries.directions,
    entries.pending,
    entries.amountsMinor,
    entries.currencies,
    entries.accountVersions,
    entries.postedBalancesAfter,
    batch.openedHolds.map((hold) => hold.holdId),
    batch.openedHolds.map((hold) => hold.expiresAt),
    batch.closedHoldIds,
  ];
}

/** The parameters of the journal's CTEs and the outbox insert, after the postings' or the tenant id. */
function journalParams(journal: JournalWrite): unknown[] {
  const { stripe, links } = journal;
  const head = links.at(-1)!;
  return [
    stripe.stripe,
    journal.encodingVersion,
    links.map((link) => link.seq),
    links.map((link) => link.transactionId),
    links.map((link) => link.previousHash),
    links.map((link) => link.hash),
    head.seq,
    head.hash,
    ...outboxInsertParams(journal.events),
  ];
}

function rethrowWriteError(error: unknown): never {
  throw translateWriteError(error);
}

@Injectable()
export class PostingRepository {
  async lockExternalRefs(tx: SqlExecutor, tenantId: string, refs: readonly string[]): Promise<void> {
    if (refs.length > 0) await tx.query(LOCK_EXTERNAL_REFS, [tenantId, [...new Set(refs)]]);
  }

  async findExternalRefs(tx: SqlExecutor, tenantId: string, refs: readonly string[]) {
    if (refs.length === 0) return new Map<string, { id: string; contentHash: Buffer }>();
    const rows = await tx.query<{ id: string; external_ref: string; content_hash: Uint8Array }>(FIND_EXTERNAL_REFS, [
      tenantId,
      [...new Set(refs)],
    ]);
    return new Map(rows.map((row) => [row.external_ref, { id: row.id, contentHash: Buffer.from(row.content_hash) }]));
  }

  /** The batch's accounts, locked in id order, and a journal stripe (see LOCK_FOR_POSTING). */
  async lockForPosting(tx: SqlExecutor, tenantId: string, refs: Iterable<string>): Promise<PostingLocks> {
    const unique = [...new Set(refs)];
    const ids = unique.filter(isUuid).map((ref) => ref.toLowerCase());
    const codes = unique.filter((ref) => !isUuid(ref));
    const start = Math.floor(Math.random() * JOURNAL_STRIPES);
    const rows = await tx.query<LockedAccountRow>(LOCK_FOR_POSTING, [tenantId, ids, codes, start]);
    const head = rows[0];
    return {
      accounts: rows.map((row) => ({
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
      })),
      stripe:
        head === undefined
          ? undefined
          : { stripe: head.stripe, seq: head.stripe_seq, hash: Buffer.from(head.stripe_hash) },
    };
  }

  /** The postings alone; WRITE_JOURNAL follows with the journal links and events. */
  async writePostings(tx: SqlExecutor, tenantId: string, batch: PostingsWrite): Promise<void> {
    await tx.query(WRITE_POSTINGS, [tenantId, ...postingsParams(batch)]).catch(rethrowWriteError);
  }

  async writeJournal(tx: SqlExecutor, tenantId: string, journal: JournalWrite): Promise<void> {
    await tx.query(WRITE_JOURNAL, [tenantId, ...journalParams(journal)]);
  }

  /** Postings, journal links and events in one statement. */
  async writeBatch(tx: SqlExecutor, tenantId: string, batch: PostingsWrite, journal: JournalWrite): Promise<void> {
    await tx
      .query(WRITE_BATCH, [tenantId, ...postingsParams(batch), ...journalParams(journal)])
      .catch(rethrowWriteError);
  }
}
