// Read-only checks of one tenant's books after the crashes, each a query a reviewer can read as SQL.
// Each answers the offending rows (none is the healthy answer), except the counts.

/** Which of the acknowledged ids ($2) exist: must be all of them. */
export const ACKNOWLEDGED_FOUND = `
SELECT count(*)::int AS found FROM transactions WHERE tenant_id = $1 AND id = ANY($2::uuid[])`;

/** Transactions nobody acknowledged and the setup did not make: a write a client never heard of. */
export const UNACKNOWLEDGED_TRANSACTIONS = `
SELECT id::text, status FROM transactions WHERE tenant_id = $1 AND NOT (id = ANY($2::uuid[])) LIMIT 20`;

/** Entries that do not sum to zero per transaction and currency. */
export const UNBALANCED_TRANSACTIONS = `
SELECT transaction_id::text, currency,
       sum(CASE direction WHEN 'debit' THEN amount_minor ELSE -amount_minor END)::text AS net_minor
  FROM entries WHERE tenant_id = $1
 GROUP BY transaction_id, currency
HAVING sum(CASE direction WHEN 'debit' THEN amount_minor ELSE -amount_minor END) <> 0
 LIMIT 20`;

/** Half transactions: a posting or hold without entries, or any transaction outside the journal. */
export const HALF_TRANSACTIONS = `
SELECT t.id::text, t.status,
       EXISTS (SELECT 1 FROM entries e WHERE e.tenant_id = t.tenant_id AND e.transaction_id = t.id) AS has_entries,
       EXISTS (SELECT 1 FROM journal_links j WHERE j.tenant_id = t.tenant_id AND j.transaction_id = t.id) AS in_journal
  FROM transactions t
 WHERE t.tenant_id = $1
   AND ((t.status IN ('posted', 'pending')
         AND NOT EXISTS (SELECT 1 FROM entries e WHERE e.tenant_id = t.tenant_id AND e.transaction_id = t.id))
        OR NOT EXISTS (SELECT 1 FROM journal_links j WHERE j.tenant_id = t.tenant_id AND j.transaction_id = t.id))
 LIMIT 20`;

/** Orphans: entries, journal links or open holds naming no transaction; open holds already resolved. */
export const ORPHANS = `
SELECT 'entry' AS kind, e.transaction_id::text AS id FROM entries e
 WHERE e.tenant_id = $1
   AND NOT EXISTS (SELECT 1 FROM transactions t WHERE t.tenant_id = e.tenant_id AND t.id = e.transaction_id)
UNION ALL
SELECT 'journal link', j.transaction_id::text FROM journal_links j
 WHERE j.tenant_id = $1
   AND NOT EXISTS (SELECT 1 FROM transactions t WHERE t.tenant_id = j.tenant_id AND t.id = j.transaction_id)
UNION ALL
SELECT 'open hold resolved', o.hold_id::text FROM open_holds o
 WHERE o.tenant_id = $1
   AND EXISTS (SELECT 1 FROM transactions r WHERE r.tenant_id = o.tenant_id AND r.hold_id = o.hold_id)
UNION ALL
SELECT 'open hold not pending', o.hold_id::text FROM open_holds o
  JOIN transactions t ON t.tenant_id = o.tenant_id AND t.id = o.hold_id
 WHERE o.tenant_id = $1 AND t.status <> 'pending'
 LIMIT 20`;

/** Posted entries per currency: the trial balance, which must net to zero. */
export const TRIAL_BALANCE = `
SELECT currency, sum(CASE direction WHEN 'debit' THEN amount_minor ELSE -amount_minor END)::text AS net_minor
  FROM entries WHERE tenant_id = $1 AND NOT pending GROUP BY currency ORDER BY currency`;

/** Accounts whose cached posted and pending totals disagree with their entries (pending: of open holds). */
export const ACCOUNTS_DISAGREEING_WITH_ENTRIES = `
WITH sums AS (
  SELECT e.account_id,
         coalesce(sum(e.amount_minor) FILTER (WHERE NOT e.pending AND e.direction = 'debit'), 0) AS posted_debits,
         coalesce(sum(e.amount_minor) FILTER (WHERE NOT e.pending AND e.direction = 'credit'), 0) AS posted_credits,
         coalesce(sum(e.amount_minor) FILTER (WHERE e.pending AND o.hold_id IS NOT NULL AND e.direction = 'debit'), 0)
           AS pending_debits,
         coalesce(sum(e.amount_minor) FILTER (WHERE e.pending AND o.hold_id IS NOT NULL AND e.direction = 'credit'), 0)
           AS pending_credits
    FROM entries e
    LEFT JOIN open_holds o ON o.tenant_id = e.tenant_id AND o.hold_id = e.transaction_id
   WHERE e.tenant_id = $1
   GROUP BY e.account_id
)
SELECT a.code
  FROM accounts a LEFT JOIN sums s ON s.account_id = a.id
 WHERE a.tenant_id = $1
   AND (a.posted_debits <> coalesce(s.posted_debits, 0) OR a.posted_credits <> coalesce(s.posted_credits, 0)
        OR a.pending_debits <> coalesce(s.pending_debits, 0) OR a.pending_credits <> coalesce(s.pending_credits, 0))
 LIMIT 20`;
