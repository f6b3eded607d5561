import { outboxInsertSql } from '@ledger/outbox';

// The posting path as SQL a reviewer can read. All of it runs in one READ COMMITTED transaction.

/**
 * Serialises postings that name the same external references (sorted, so two batches never wait for
 * each other in opposite orders). Taken before any account lock.
 */
export const LOCK_EXTERNAL_REFS = `
SELECT pg_advisory_xact_lock(hashtextextended($1::text || ':ref:' || ref, 0))
  FROM unnest($2::text[]) AS ref ORDER BY ref`;

/**
 * Driven from the references, one probe of the unique (tenant, external_ref) index each: as
 * `external_ref = ANY($2)` a generic plan made while the table looked empty scanned every transaction
 * of the tenant and compared it with each reference of the batch (quadratic as the ledger grew).
 */
export const FIND_EXTERNAL_REFS = `
SELECT t.id, t.external_ref, t.content_hash
  FROM unnest($2::text[]) AS r(ref)
  JOIN transactions t ON t.tenant_id = $1 AND t.external_ref = r.ref`;

/**
 * Locks the batch's accounts in id order, then takes a free journal stripe (see
 * ledger_lock_for_posting in the migrations): any two postings lock their common accounts in the same
 * order, so they queue instead of deadlocking, and the stripe's row lock, which fixes a transaction's
 * place in the event feed, comes after them. Each account row carries the stripe's head.
 */
export const LOCK_FOR_POSTING = `SELECT * FROM ledger_lock_for_posting($1, $2::uuid[], $3::text[], $4)`;

/** Serialises everything that resolves one hold or reverses one transaction. */
export const LOCK_TRANSACTION = `SELECT pg_advisory_xact_lock(hashtextextended($1::text || ':transaction:' || $2, 0))`;

/**
 * A planned batch's postings as CTEs over parameters $2 to $30: transaction rows, account totals,
 * entries, opened and closed holds. PostgreSQL checks them again: accounts_available_non_negative,
 * entries_zero_sum, the currency foreign key, one resolution per hold, one reversal per transaction.
 */
const POSTINGS_CTES = `
new_transactions AS (
  INSERT INTO transactions (tenant_id, id, status, external_ref, content_hash, description, metadata,
                            effective_at, created_at, expires_at, hold_id, reverses_id)
  SELECT $1, t.id, t.status, t.external_ref, t.content_hash, t.description, t.metadata::jsonb,
         t.effective_at, t.created_at, t.expires_at, t.hold_id, t.reverses_id
    FROM unnest($2::uuid[], $3::text[], $4::text[], $5::bytea[], $6::text[], $7::text[],
                $8::timestamptz[], $9::timestamptz[], $10::timestamptz[], $11::uuid[], $12::uuid[])
         AS t(id, status, external_ref, content_hash, description, metadata, effective_at, created_at,
              expires_at, hold_id, reverses_id)
), updated_accounts AS (
  UPDATE accounts a
     SET posted_debits = a.posted_debits + d.posted_debits,
         posted_credits = a.posted_credits + d.posted_credits,
         pending_debits = a.pending_debits + d.pending_debits,
         pending_credits = a.pending_credits + d.pending_credits,
         version = a.version + d.versions
    FROM unnest($13::uuid[], $14::int8[], $15::int8[], $16::int8[], $17::int8[], $18::int8[])
         AS d(account_id, posted_debits, posted_credits, pending_debits, pending_credits, versions)
   WHERE a.tenant_id = $1 AND a.id = d.account_id
), new_entries AS (
  -- An entry names its transaction and account by their place in the arrays above (1-based), and
  -- takes its times from its transaction: small integers instead of thousands of UUIDs and
  -- timestamps for PostgreSQL to parse while the batch holds its locks.
  INSERT INTO entries (tenant_id, transaction_id, leg, account_id, direction, pending, amount_minor,
                       currency, account_version, posted_balance_after, effective_at, created_at)
  SELECT $1, ($2::uuid[])[e.transaction_index], e.leg, ($13::uuid[])[e.account_index], e.direction, e.pending,
         e.amount_minor, e.currency, e.account_version, e.posted_balance_after,
         ($8::timestamptz[])[e.transaction_index], ($9::timestamptz[])[e.transaction_index]
    FROM unnest($19::int4[], $20::int2[], $21::int4[], $22::text[], $23::bool[], $24::int8[],
                $25::text[], $26::int8[], $27::int8[])
         AS e(transaction_index, leg, account_index, direction, pending, amount_minor, currency,
              account_version, posted_balance_after)
), opened_holds AS (
  INSERT INTO open_holds (tenant_id, hold_id, expires_at)
  SELECT $1, h.hold_id, h.expires_at FROM unnest($28::uuid[], $29::timestamptz[]) AS h(hold_id, expires_at)
), closed_holds AS (
  DELETE FROM open_holds WHERE tenant_id = $1 AND hold_id = ANY($30::uuid[])
)`;

/** The parameters after the tenant id that POSTINGS_CTES takes. */
const POSTINGS_PARAMS = 29;

/**
 * The CTEs that link the batch's transactions into a journal stripe and move the stripe's head, over
 * 8 parameters from `$first` on: stripe, encoding version, seqs, transaction ids, previous hashes,
 * hashes, the head's new seq and hash. At commit, transactions_have_entries checks that every
 * transaction of the batch was linked.
 */
function journalCtes(first: number): string {
  const p = (offset: number) => `$${first + offset}`;
  return `
new_links AS (
  INSERT INTO journal_links (tenant_id, stripe, seq, transaction_id, encoding_version, previous_hash, hash)
  SELECT $1, ${p(0)}, l.seq, l.transaction_id, ${p(1)}, l.previous_hash, l.hash
    FROM unnest(${p(2)}::int8[], ${p(3)}::uuid[], ${p(4)}::bytea[], ${p(5)}::bytea[]) AS l(seq, transaction_id, previous_hash, hash)
), new_head AS (
  UPDATE journal_heads SET seq = ${p(6)}, hash = ${p(7)} WHERE tenant_id = $1 AND stripe = ${p(0)}
)`;
}

const JOURNAL_PARAMS = 8;

/** A batch's postings alone, when its journal links and events follow in WRITE_JOURNAL. */
export const WRITE_POSTINGS = `WITH ${POSTINGS_CTES} SELECT`;

/** A batch's journal links, the stripe's new head and the outbox events, after WRITE_POSTINGS. */
export const WRITE_JOURNAL = `WITH ${journalCtes(2)}
${outboxInsertSql(2 + JOURNAL_PARAMS)}`;

/** Everything of a batch in one statement: postings, journal links, the stripe's head, outbox events. */
export const WRITE_BATCH = `WITH ${POSTINGS_CTES}, ${journalCtes(2 + POSTINGS_PARAMS)}
${outboxInsertSql(2 + POSTINGS_PARAMS + JOURNAL_PARAMS)}`;
