// The posting path, as SQL a reviewer can read. All run inside one READ COMMITTED transaction.

/** Claims the external reference first: a concurrent twin waits here, then sees this one's row. */
export const INSERT_TRANSACTION = `
INSERT INTO transactions (tenant_id, id, status, external_ref, content_hash, description, metadata, effective_at)
VALUES ($1, $2, 'posted', $3, $4, $5, $6::text::jsonb, coalesce($7, now()))
ON CONFLICT (tenant_id, external_ref) DO NOTHING
RETURNING effective_at, created_at`;

export const FIND_BY_EXTERNAL_REF = `
SELECT id, content_hash FROM transactions WHERE tenant_id = $1 AND external_ref = $2`;

/**
 * Locks every account of the transaction in id order: any two postings lock their common accounts
 * in the same order, so they queue instead of deadlocking.
 */
export const LOCK_ACCOUNTS = `
SELECT id, code, currency, normal_balance, allow_negative,
       posted_debits, posted_credits, pending_debits, pending_credits, version
  FROM accounts
 WHERE tenant_id = $1 AND (id = ANY($2::uuid[]) OR code = ANY($3::text[]))
 ORDER BY id
   FOR UPDATE`;

/**
 * Applies the plan: new account totals and the entries, in one statement. The database checks it
 * again: accounts_available_non_negative, entries_zero_sum, the entries' currency foreign key.
 */
export const APPLY_POSTING = `
WITH updated_accounts AS (
  UPDATE accounts a
     SET posted_debits = a.posted_debits + d.debit_minor,
         posted_credits = a.posted_credits + d.credit_minor,
         version = a.version + 1
    FROM unnest($3::uuid[], $4::int8[], $5::int8[]) AS d(account_id, debit_minor, credit_minor)
   WHERE a.tenant_id = $1 AND a.id = d.account_id
)
INSERT INTO entries (tenant_id, transaction_id, leg, account_id, direction, amount_minor, currency,
                     account_version, posted_balance_after, effective_at)
SELECT $1, $2, e.leg, e.account_id, e.direction, e.amount_minor, e.currency,
       e.account_version, e.posted_balance_after, $6
  FROM unnest($7::int2[], $8::uuid[], $9::text[], $10::int8[], $11::text[], $12::int8[], $13::int8[])
       AS e(leg, account_id, direction, amount_minor, currency, account_version, posted_balance_after)`;

const TRANSACTION_WITH_ENTRIES = `
SELECT t.id, t.status, t.external_ref, t.description, t.metadata, t.effective_at, t.created_at,
       json_agg(json_build_object(
         'leg', e.leg, 'accountId', e.account_id, 'accountCode', a.code, 'direction', e.direction,
         'amount', e.amount_minor::text, 'currency', e.currency) ORDER BY e.leg) AS entries
  FROM transactions t
  JOIN entries e ON e.tenant_id = t.tenant_id AND e.transaction_id = t.id
  JOIN accounts a ON a.tenant_id = e.tenant_id AND a.id = e.account_id`;

/** One transaction with its entries, as the API shows it. */
export const FIND_TRANSACTION = `${TRANSACTION_WITH_ENTRIES}
 WHERE t.tenant_id = $1 AND t.id = $2
 GROUP BY t.tenant_id, t.id`;

/** Newest first (ids are UUIDv7, so id order is creation order), keyset-paged on id. */
export const LIST_TRANSACTIONS = `${TRANSACTION_WITH_ENTRIES}
 WHERE t.tenant_id = $1
   AND ($2::text IS NULL OR t.external_ref = $2)
   AND ($3::uuid IS NULL OR EXISTS (SELECT 1 FROM entries x
         WHERE x.tenant_id = t.tenant_id AND x.transaction_id = t.id AND x.account_id = $3))
   AND ($4::timestamptz IS NULL OR t.created_at >= $4)
   AND ($5::timestamptz IS NULL OR t.created_at < $5)
   AND ($6::uuid IS NULL OR t.id < $6)
 GROUP BY t.tenant_id, t.id
 ORDER BY t.id DESC
 LIMIT $7`;
