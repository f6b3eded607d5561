import { sql } from '@ledger/db';
import { OUTBOX_INSERT_SQL, type OutboxInsertParams } from '@ledger/outbox';
import type { Side } from '../domain/balances';
import type { TransactionStatus } from './transaction.view';

// The posting path as SQL a reviewer can read. All of it runs in one READ COMMITTED transaction.
// The statements that write a batch are composed from three parts (POSTINGS_CTES, JOURNAL_CTES and
// the outbox insert); a parameter is named once and means the same wherever a part uses it.

/**
 * Serialises the writers that name the same things of a tenant, before any account lock: external
 * references (`ref`), named by postings, and transactions (`transaction`), named by what resolves a hold
 * or reverses a transaction (NamedTransactionRepository). Sorted, so two writers naming several of the
 * same never wait for each other in opposite orders.
 */
export const LOCK_NAMES = sql<{ tenantId: string; kind: 'ref' | 'transaction'; names: string[] }>(`
SELECT pg_advisory_xact_lock(hashtextextended(:tenantId::text || ':' || :kind::text || ':' || lock_name, 0))
  FROM unnest(:names::text[]) AS lock_name ORDER BY lock_name`);

export interface ExternalRefRow {
  id: string;
  external_ref: string;
  content_hash: Uint8Array;
}

/**
 * Driven from the references, one probe of the unique (tenant, external_ref) index each: as
 * `external_ref = ANY(:refs)` a generic plan made while the table looked empty scanned every
 * transaction of the tenant and compared it with each reference of the batch (quadratic as the
 * ledger grew).
 */
export const FIND_EXTERNAL_REFS = sql<{ tenantId: string; refs: string[] }, ExternalRefRow>(`
SELECT t.id, t.external_ref, t.content_hash
  FROM unnest(:refs::text[]) AS r(ref)
  JOIN transactions t ON t.tenant_id = :tenantId AND t.external_ref = r.ref`);

/** An account's columns as the planner reads them. */
export interface AccountRow {
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
}

/** An account locked for posting, with the journal stripe taken after the accounts' locks. */
export interface LockedAccountRow extends AccountRow {
  stripe: number;
  stripe_seq: bigint;
  stripe_hash: Uint8Array;
}

/**
 * Locks the batch's accounts in id order, then takes a free journal stripe (see
 * ledger_lock_for_posting in the migrations): any two postings lock their common accounts in the same
 * order, so they queue instead of deadlocking, and the stripe's row lock, which fixes a transaction's
 * place in the event feed, comes after them. Each account row carries the stripe's head.
 */
export const LOCK_FOR_POSTING = sql<
  { tenantId: string; accountIds: string[]; accountCodes: string[]; firstStripe: number },
  LockedAccountRow
>(`SELECT * FROM ledger_lock_for_posting(:tenantId, :accountIds::uuid[], :accountCodes::text[], :firstStripe)`);

/**
 * The accounts a batch names, read without their locks so that it can plan before it takes them (see
 * PostingEngine.send); the same columns, in the same order, as LOCK_FOR_POSTING's.
 */
export const READ_ACCOUNTS_AHEAD = sql<{ tenantId: string; accountIds: string[]; accountCodes: string[] }, AccountRow>(`
SELECT a.id, a.code, a.currency::text AS currency, a.normal_balance, a.allow_negative, a.posted_debits,
       a.posted_credits, a.pending_debits, a.pending_credits, a.version
  FROM accounts a
 WHERE a.tenant_id = :tenantId AND (a.id = ANY (:accountIds::uuid[]) OR a.code = ANY (:accountCodes::text[]))
 ORDER BY a.id`);

/** The parameters of POSTINGS_CTES: one array per column of each kind of row. */
export interface PostingsParams {
  tenantId: string;
  transactionIds: string[];
  statuses: TransactionStatus[];
  externalRefs: (string | null)[];
  contentHashes: Buffer[];
  descriptions: (string | null)[];
  /** Each transaction's metadata as JSON text. */
  metadata: string[];
  effectiveAts: Date[];
  createdAts: Date[];
  expiresAts: (Date | null)[];
  holdIds: (string | null)[];
  reversesIds: (string | null)[];
  /** Who made each transaction (see the README's accountability section): set here, never changed. */
  actors: string[];
  accountIds: string[];
  postedDebits: bigint[];
  postedCredits: bigint[];
  pendingDebits: bigint[];
  pendingCredits: bigint[];
  versions: bigint[];
  entryTransactionIndexes: number[];
  entryLegs: number[];
  entryAccountIndexes: number[];
  entryDirections: Side[];
  entryPending: boolean[];
  entryAmountsMinor: bigint[];
  entryCurrencies: string[];
  touchTransactionIndexes: number[];
  touchAccountIndexes: number[];
  touchPostedChanges: bigint[];
  touchAvailableChanges: bigint[];
  openedHoldIds: string[];
  openedHoldExpiresAts: Date[];
  closedHoldIds: readonly string[];
}

/**
 * A planned batch's postings as CTEs: transaction rows, account totals, entries, opened and closed
 * holds. Each entry's account version and posted balance after are numbered here, from the account
 * rows as updated (their values before the batch are the new ones less the batch's deltas), and every
 * non-negative account's available balance is checked after each item that touches it: the plan may
 * have been made on accounts read before their locks (see PostingEngine), and
 * accounts_available_non_negative sees only the final totals. PostgreSQL also checks entries_zero_sum,
 * the currency foreign key, one resolution per hold, one reversal per transaction.
 */
const POSTINGS_CTES = `
new_transactions AS (
  INSERT INTO transactions (tenant_id, id, status, external_ref, content_hash, description, metadata,
                            effective_at, created_at, expires_at, hold_id, reverses_id, actor)
  SELECT :tenantId, t.id, t.status, t.external_ref, t.content_hash, t.description, t.metadata::jsonb,
         t.effective_at, t.created_at, t.expires_at, t.hold_id, t.reverses_id, t.actor
    FROM unnest(:transactionIds::uuid[], :statuses::text[], :externalRefs::text[], :contentHashes::bytea[],
                :descriptions::text[], :metadata::text[], :effectiveAts::timestamptz[],
                :createdAts::timestamptz[], :expiresAts::timestamptz[], :holdIds::uuid[], :reversesIds::uuid[],
                :actors::text[])
         AS t(id, status, external_ref, content_hash, description, metadata, effective_at, created_at,
              expires_at, hold_id, reverses_id, actor)
), updated_accounts AS (
  UPDATE accounts a
     SET posted_debits = a.posted_debits + d.posted_debits,
         posted_credits = a.posted_credits + d.posted_credits,
         pending_debits = a.pending_debits + d.pending_debits,
         pending_credits = a.pending_credits + d.pending_credits,
         version = a.version + d.versions
    FROM unnest(:accountIds::uuid[], :postedDebits::int8[], :postedCredits::int8[], :pendingDebits::int8[],
                :pendingCredits::int8[], :versions::int8[]) WITH ORDINALITY
         AS d(account_id, posted_debits, posted_credits, pending_debits, pending_credits, versions, account_index)
   WHERE a.tenant_id = :tenantId AND a.id = d.account_id
  RETURNING d.account_index, a.allow_negative, a.version - d.versions AS version_before,
            CASE a.normal_balance
              WHEN 'credit' THEN (a.posted_credits - d.posted_credits) - (a.posted_debits - d.posted_debits)
              ELSE (a.posted_debits - d.posted_debits) - (a.posted_credits - d.posted_credits)
            END AS posted_before,
            CASE a.normal_balance
              WHEN 'credit' THEN a.pending_debits - d.pending_debits
              ELSE a.pending_credits - d.pending_credits
            END AS pending_before
), touches AS (
  -- Each item's change of each account it moves or releases, in the items' order (an account appears
  -- once per item): the account's version and posted balance after that item, and whether its
  -- available balance is still allowed.
  SELECT t.transaction_index, t.account_index,
         u.version_before + row_number() OVER running AS account_version,
         u.posted_before + sum(t.posted_change) OVER running AS posted_balance_after,
         u.allow_negative OR u.posted_before - u.pending_before + sum(t.available_change) OVER running >= 0
           AS available_holds
    FROM unnest(:touchTransactionIndexes::int4[], :touchAccountIndexes::int4[], :touchPostedChanges::int8[],
                :touchAvailableChanges::int8[]) AS t(transaction_index, account_index, posted_change, available_change)
    JOIN updated_accounts u ON u.account_index = t.account_index
  WINDOW running AS (PARTITION BY t.account_index ORDER BY t.transaction_index)
), new_entries AS (
  -- An entry names its transaction and account by their place in the arrays above (1-based), and
  -- takes its times from its transaction: small integers instead of thousands of UUIDs and
  -- timestamps for PostgreSQL to parse while the batch holds its locks.
  INSERT INTO entries (tenant_id, transaction_id, leg, account_id, direction, pending, amount_minor,
                       currency, account_version, posted_balance_after, effective_at, created_at)
  SELECT :tenantId, (:transactionIds::uuid[])[e.transaction_index], e.leg,
         (:accountIds::uuid[])[e.account_index], e.direction, e.pending, e.amount_minor, e.currency,
         t.account_version, t.posted_balance_after,
         (:effectiveAts::timestamptz[])[e.transaction_index], (:createdAts::timestamptz[])[e.transaction_index]
    FROM unnest(:entryTransactionIndexes::int4[], :entryLegs::int2[], :entryAccountIndexes::int4[],
                :entryDirections::text[], :entryPending::bool[], :entryAmountsMinor::int8[],
                :entryCurrencies::text[])
         AS e(transaction_index, leg, account_index, direction, pending, amount_minor, currency)
    JOIN touches t ON t.transaction_index = e.transaction_index AND t.account_index = e.account_index
   WHERE (SELECT ledger_assert_planned_balances_hold(coalesce(bool_and(available_holds), true)) FROM touches)
), opened_holds AS (
  INSERT INTO open_holds (tenant_id, hold_id, expires_at)
  SELECT :tenantId, h.hold_id, h.expires_at
    FROM unnest(:openedHoldIds::uuid[], :openedHoldExpiresAts::timestamptz[]) AS h(hold_id, expires_at)
), closed_holds AS (
  DELETE FROM open_holds WHERE tenant_id = :tenantId AND hold_id = ANY(:closedHoldIds::uuid[])
)`;

/** The parameters of JOURNAL_CTES, and of the outbox insert that follows them. */
export interface JournalParams extends OutboxInsertParams {
  stripe: number;
  encodingVersion: number;
  linkSeqs: bigint[];
  linkTransactionIds: string[];
  linkPreviousHashes: Buffer[];
  linkHashes: Buffer[];
  /** The stripe's new head: its last link's seq and hash. */
  headSeq: bigint;
  headHash: Buffer;
}

/**
 * The CTEs that link the batch's transactions into a journal stripe and move the stripe's head. At
 * commit, transactions_have_entries checks that every transaction of the batch was linked.
 */
const JOURNAL_CTES = `
new_links AS (
  INSERT INTO journal_links (tenant_id, stripe, seq, transaction_id, encoding_version, previous_hash, hash)
  SELECT :tenantId, :stripe, l.seq, l.transaction_id, :encodingVersion, l.previous_hash, l.hash
    FROM unnest(:linkSeqs::int8[], :linkTransactionIds::uuid[], :linkPreviousHashes::bytea[],
                :linkHashes::bytea[]) AS l(seq, transaction_id, previous_hash, hash)
), new_head AS (
  UPDATE journal_heads SET seq = :headSeq, hash = :headHash WHERE tenant_id = :tenantId AND stripe = :stripe
)`;

/** A batch's postings alone, when its journal links and events follow in WRITE_JOURNAL. */
export const WRITE_POSTINGS = sql<PostingsParams>(`WITH ${POSTINGS_CTES} SELECT`);

/** A batch's journal links, the stripe's new head and the outbox events, after WRITE_POSTINGS. */
export const WRITE_JOURNAL = sql<JournalParams>(`WITH ${JOURNAL_CTES}
${OUTBOX_INSERT_SQL}`);

/** Everything of a batch in one statement: postings, journal links, the stripe's head, outbox events. */
export const WRITE_BATCH = sql<PostingsParams & JournalParams>(`WITH ${POSTINGS_CTES}, ${JOURNAL_CTES}
${OUTBOX_INSERT_SQL}`);
