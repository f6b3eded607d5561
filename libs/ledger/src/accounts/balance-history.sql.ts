// Point-in-time balances: the latest snapshot at or before the time, plus the entries after it.

/**
 * Posted totals from entries effective at or before $2: of one account ($3), or of all the tenant's
 * accounts in id order ($3 null, at most $4 rows).
 */
export const BALANCES_AS_OF = `
SELECT a.id, a.code, a.currency, a.normal_balance,
       (coalesce(s.posted_debits, 0) + n.debits)::text AS posted_debits,
       (coalesce(s.posted_credits, 0) + n.credits)::text AS posted_credits
  FROM accounts a
  LEFT JOIN LATERAL (
    SELECT as_of, posted_debits, posted_credits FROM balance_snapshots b
     WHERE b.tenant_id = a.tenant_id AND b.account_id = a.id AND b.as_of <= $2
     ORDER BY as_of DESC LIMIT 1) s ON true
 CROSS JOIN LATERAL (
    SELECT coalesce(sum(e.amount_minor) FILTER (WHERE e.direction = 'debit'), 0) AS debits,
           coalesce(sum(e.amount_minor) FILTER (WHERE e.direction = 'credit'), 0) AS credits
      FROM entries e
     WHERE e.tenant_id = a.tenant_id AND e.account_id = a.id AND NOT e.pending
       AND e.effective_at <= $2 AND e.effective_at > coalesce(s.as_of, '-infinity')) n
 WHERE a.tenant_id = $1 AND ($3::uuid IS NULL OR a.id = $3)
 ORDER BY a.id
 LIMIT $4`;

/** The next page of accounts to snapshot, in key order. */
export const ACCOUNT_KEYS_AFTER = `
SELECT tenant_id, id FROM accounts WHERE (tenant_id, id) > ($1::uuid, $2::uuid) ORDER BY tenant_id, id LIMIT $3`;

/**
 * A snapshot at $1 for each account of the page that has entries since its latest snapshot. $1 lies
 * before the back-dating window, so no entry can arrive before it any more.
 */
export const TAKE_SNAPSHOTS = `
INSERT INTO balance_snapshots (tenant_id, account_id, as_of, posted_debits, posted_credits)
SELECT a.tenant_id, a.id, $1, coalesce(s.posted_debits, 0) + n.debits, coalesce(s.posted_credits, 0) + n.credits
  FROM unnest($2::uuid[], $3::uuid[]) AS a(tenant_id, id)
  LEFT JOIN LATERAL (
    SELECT as_of, posted_debits, posted_credits FROM balance_snapshots b
     WHERE b.tenant_id = a.tenant_id AND b.account_id = a.id ORDER BY as_of DESC LIMIT 1) s ON true
 CROSS JOIN LATERAL (
    SELECT coalesce(sum(e.amount_minor) FILTER (WHERE e.direction = 'debit'), 0) AS debits,
           coalesce(sum(e.amount_minor) FILTER (WHERE e.direction = 'credit'), 0) AS credits,
           count(*) AS entries
      FROM entries e
     WHERE e.tenant_id = a.tenant_id AND e.account_id = a.id AND NOT e.pending
       AND e.effective_at > coalesce(s.as_of, '-infinity') AND e.effective_at <= $1) n
 WHERE n.entries > 0 AND (s.as_of IS NULL OR s.as_of < $1)
ON CONFLICT DO NOTHING`;

/** Accounts of a tenant, keyset-paged on id, with optional filters. */
export const LIST_ACCOUNTS = `
SELECT id, code, name, currency, normal_balance, allow_negative, metadata, posted_debits, posted_credits,
       pending_debits, pending_credits, version, created_at
  FROM accounts
 WHERE tenant_id = $1
   AND ($2::text IS NULL OR currency = $2)
   AND ($3::text IS NULL OR starts_with(code, $3))
   AND ($4::text IS NULL OR metadata @> $4::text::jsonb)
   AND ($5::uuid IS NULL OR id > $5)
 ORDER BY id
 LIMIT $6`;
