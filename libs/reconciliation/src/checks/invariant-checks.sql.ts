// The ledger's internal invariants, each one set-based query over a tenant's rows. Each returns the
// rows that break it (at most $2): none is the healthy answer.

/** Every transaction sums to zero per currency. */
export const UNBALANCED_TRANSACTIONS = `
SELECT e.transaction_id::text AS key, e.currency::text AS currency,
       sum(CASE e.direction WHEN 'debit' THEN e.amount_minor ELSE -e.amount_minor END)::text AS amount
  FROM entries e WHERE e.tenant_id = $1
 GROUP BY e.transaction_id, e.currency
HAVING sum(CASE e.direction WHEN 'debit' THEN e.amount_minor ELSE -e.amount_minor END) <> 0
 LIMIT $2`;

/** The trial balance of posted entries is zero per currency. */
export const TRIAL_BALANCE = `
SELECT e.currency::text AS key, e.currency::text AS currency,
       sum(CASE e.direction WHEN 'debit' THEN e.amount_minor ELSE -e.amount_minor END)::text AS amount
  FROM entries e WHERE e.tenant_id = $1 AND NOT e.pending
 GROUP BY e.currency
HAVING sum(CASE e.direction WHEN 'debit' THEN e.amount_minor ELSE -e.amount_minor END) <> 0
 LIMIT $2`;

/**
 * Each account's cached posted and pending totals equal the sums of its entries (pending: of open holds).
 * The amount is cached posted balance minus the entries' posted balance, on the account's normal side.
 */
export const CACHED_BALANCES = `
SELECT a.code AS key, a.currency::text AS currency,
       ((CASE a.normal_balance WHEN 'credit' THEN -1 ELSE 1 END)
         * ((a.posted_debits - a.posted_credits) - (coalesce(s.posted_debits, 0) - coalesce(s.posted_credits, 0))))::text AS amount,
       json_build_object('cached', json_build_object('postedDebits', a.posted_debits::text, 'postedCredits', a.posted_credits::text,
                                                     'pendingDebits', a.pending_debits::text, 'pendingCredits', a.pending_credits::text),
                         'fromEntries', json_build_object('postedDebits', coalesce(s.posted_debits, 0)::text, 'postedCredits', coalesce(s.posted_credits, 0)::text,
                                                          'pendingDebits', coalesce(s.pending_debits, 0)::text, 'pendingCredits', coalesce(s.pending_credits, 0)::text)) AS detail
  FROM accounts a
  LEFT JOIN (
    SELECT e.account_id,
           sum(e.amount_minor) FILTER (WHERE NOT e.pending AND e.direction = 'debit') AS posted_debits,
           sum(e.amount_minor) FILTER (WHERE NOT e.pending AND e.direction = 'credit') AS posted_credits,
           sum(e.amount_minor) FILTER (WHERE e.pending AND e.direction = 'debit' AND o.hold_id IS NOT NULL) AS pending_debits,
           sum(e.amount_minor) FILTER (WHERE e.pending AND e.direction = 'credit' AND o.hold_id IS NOT NULL) AS pending_credits
      FROM entries e
      LEFT JOIN open_holds o ON o.tenant_id = e.tenant_id AND o.hold_id = e.transaction_id
     WHERE e.tenant_id = $1
     GROUP BY e.account_id) s ON s.account_id = a.id
 WHERE a.tenant_id = $1
   AND (a.posted_debits <> coalesce(s.posted_debits, 0) OR a.posted_credits <> coalesce(s.posted_credits, 0)
        OR a.pending_debits <> coalesce(s.pending_debits, 0) OR a.pending_credits <> coalesce(s.pending_credits, 0))
 LIMIT $2`;

/** No account that may not go negative has a negative available balance. */
export const NEGATIVE_ACCOUNTS = `
SELECT a.code AS key, a.currency::text AS currency,
       (CASE a.normal_balance WHEN 'credit' THEN a.posted_credits - a.posted_debits - a.pending_debits
                              ELSE a.posted_debits - a.posted_credits - a.pending_credits END)::text AS amount
  FROM accounts a
 WHERE a.tenant_id = $1 AND NOT a.allow_negative
   AND CASE a.normal_balance WHEN 'credit' THEN a.posted_credits - a.posted_debits - a.pending_debits
                             ELSE a.posted_debits - a.posted_credits - a.pending_credits END < 0
 LIMIT $2`;

/** Holds past their expiry by more than the grace period $3 (the worker expires them every 10 s). */
export const STALE_HOLDS = `
SELECT o.hold_id::text AS key, e.currency::text AS currency, max(e.amount_minor)::text AS amount,
       json_build_object('expiresAt', o.expires_at) AS detail
  FROM open_holds o JOIN entries e ON e.tenant_id = o.tenant_id AND e.transaction_id = o.hold_id
 WHERE o.tenant_id = $1 AND o.expires_at < now() - make_interval(secs => $3)
 GROUP BY o.hold_id, o.expires_at, e.currency
 LIMIT $2`;

/** Imported statements whose opening balance plus their lines is not their closing balance. */
export const BROKEN_STATEMENTS = `
SELECT i.id::text || ':' || (s.value ->> 'statementIndex') AS key, s.value -> 'closing' ->> 'currency' AS currency,
       s.value -> 'closing' ->> 'amount' AS amount, src.name AS source, a.code AS account_code,
       json_build_object('importId', i.id, 'fileName', i.file_name, 'statement', s.value) AS detail
  FROM statement_imports i
  JOIN statement_sources src ON src.tenant_id = i.tenant_id AND src.id = i.source_id
  JOIN accounts a ON a.tenant_id = src.tenant_id AND a.id = src.account_id
 CROSS JOIN LATERAL jsonb_array_elements(i.statements) AS s(value)
 WHERE i.tenant_id = $1 AND i.completed_at IS NOT NULL AND (s.value ->> 'balanced')::boolean IS FALSE
 LIMIT $2`;
