import { sql } from '@ledger/db';

// The ledger's internal invariants, each one set-based read of a tenant's books (transactions,
// entries, accounts, open holds). Each answers the rows that break it, at most :limit: none is the
// healthy answer. Read-only: an audit never changes what it audits.

/** A row that breaks an invariant: what it is about, and by how much (minor units, as exact text). */
export interface BooksAuditRow {
  key: string;
  currency: string | null;
  amount: string | null;
  detail?: Record<string, unknown> | null;
}

interface AuditParams {
  tenantId: string;
  limit: number;
}

const SIGNED = `CASE e.direction WHEN 'debit' THEN e.amount_minor ELSE -e.amount_minor END`;

/** Every transaction sums to zero per currency. */
export const UNBALANCED_TRANSACTIONS = sql<AuditParams, BooksAuditRow>(`
SELECT e.transaction_id::text AS key, e.currency::text AS currency, sum(${SIGNED})::text AS amount
  FROM entries e WHERE e.tenant_id = :tenantId
 GROUP BY e.transaction_id, e.currency
HAVING sum(${SIGNED}) <> 0
 LIMIT :limit`);

/** The trial balance of posted entries is zero per currency. */
export const TRIAL_BALANCE = sql<AuditParams, BooksAuditRow>(`
SELECT e.currency::text AS key, e.currency::text AS currency, sum(${SIGNED})::text AS amount
  FROM entries e WHERE e.tenant_id = :tenantId AND NOT e.pending
 GROUP BY e.currency
HAVING sum(${SIGNED}) <> 0
 LIMIT :limit`);

/**
 * Each account's cached posted and pending totals equal the sums of its entries (pending: of open holds).
 * The amount is cached posted balance minus the entries' posted balance, on the account's normal side.
 */
export const CACHED_BALANCES = sql<AuditParams, BooksAuditRow>(`
SELECT a.code AS key, a.currency::text AS currency,
       ((CASE a.normal_balance WHEN 'credit' THEN -1 ELSE 1 END)
         * ((a.posted_debits - a.posted_credits)
            - (coalesce(s.posted_debits, 0) - coalesce(s.posted_credits, 0))))::text AS amount,
       json_build_object(
         'cached', json_build_object(
           'postedDebits', a.posted_debits::text, 'postedCredits', a.posted_credits::text,
           'pendingDebits', a.pending_debits::text, 'pendingCredits', a.pending_credits::text),
         'fromEntries', json_build_object(
           'postedDebits', coalesce(s.posted_debits, 0)::text, 'postedCredits', coalesce(s.posted_credits, 0)::text,
           'pendingDebits', coalesce(s.pending_debits, 0)::text,
           'pendingCredits', coalesce(s.pending_credits, 0)::text)) AS detail
  FROM accounts a
  LEFT JOIN (
    SELECT e.account_id,
           sum(e.amount_minor) FILTER (WHERE NOT e.pending AND e.direction = 'debit') AS posted_debits,
           sum(e.amount_minor) FILTER (WHERE NOT e.pending AND e.direction = 'credit') AS posted_credits,
           sum(e.amount_minor) FILTER (WHERE e.pending AND e.direction = 'debit' AND o.hold_id IS NOT NULL)
             AS pending_debits,
           sum(e.amount_minor) FILTER (WHERE e.pending AND e.direction = 'credit' AND o.hold_id IS NOT NULL)
             AS pending_credits
      FROM entries e
      LEFT JOIN open_holds o ON o.tenant_id = e.tenant_id AND o.hold_id = e.transaction_id
     WHERE e.tenant_id = :tenantId
     GROUP BY e.account_id) s ON s.account_id = a.id
 WHERE a.tenant_id = :tenantId
   AND (a.posted_debits <> coalesce(s.posted_debits, 0) OR a.posted_credits <> coalesce(s.posted_credits, 0)
        OR a.pending_debits <> coalesce(s.pending_debits, 0) OR a.pending_credits <> coalesce(s.pending_credits, 0))
 LIMIT :limit`);

const AVAILABLE = `CASE a.normal_balance WHEN 'credit' THEN a.posted_credits - a.posted_debits - a.pending_debits
                                        ELSE a.posted_debits - a.posted_credits - a.pending_credits END`;

/** No account that may not go negative has a negative available balance. */
export const NEGATIVE_ACCOUNTS = sql<AuditParams, BooksAuditRow>(`
SELECT a.code AS key, a.currency::text AS currency, (${AVAILABLE})::text AS amount
  FROM accounts a
 WHERE a.tenant_id = :tenantId AND NOT a.allow_negative AND ${AVAILABLE} < 0
 LIMIT :limit`);

/** Holds past their expiry by more than the grace period (the worker expires them every 10 s). */
export const STALE_HOLDS = sql<AuditParams & { graceSeconds: number }, BooksAuditRow>(`
SELECT o.hold_id::text AS key, e.currency::text AS currency, max(e.amount_minor)::text AS amount,
       json_build_object('expiresAt', o.expires_at) AS detail
  FROM open_holds o JOIN entries e ON e.tenant_id = o.tenant_id AND e.transaction_id = o.hold_id
 WHERE o.tenant_id = :tenantId AND o.expires_at < now() - make_interval(secs => :graceSeconds)
 GROUP BY o.hold_id, o.expires_at, e.currency
 LIMIT :limit`);
