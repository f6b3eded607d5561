import type pg from 'pg';

// After each workload: the books of each bench tenant must still balance. These are read-only
// queries over the whole tenant, so they also catch damage from the setup or an earlier workload.

const NET_BY_CURRENCY = `
SELECT currency, sum(posted_debits - posted_credits)::text AS net_minor
  FROM accounts WHERE tenant_id = $1 GROUP BY currency ORDER BY currency`;

const NEGATIVE_ACCOUNTS = `
SELECT count(*)::int AS count
  FROM accounts
 WHERE tenant_id = $1 AND NOT allow_negative
   AND CASE normal_balance WHEN 'credit' THEN posted_credits - posted_debits
                           ELSE posted_debits - posted_credits END < 0`;

// Beyond the brief's two checks, cheap enough at bench sizes: every account's posted totals are what
// its posted entries add up to, its pending totals what the entries of its open holds add up to (a
// hold's entries reserve, they do not move posted balances; a resolved hold reserves nothing), no
// entry is newer than the account's version (a void or an expiry moves the version without an entry),
// and its newest entry carries its current posted balance.
const ACCOUNTS_DISAGREEING_WITH_ENTRIES = `
WITH sums AS (
  SELECT e.account_id,
         coalesce(sum(e.amount_minor) FILTER (WHERE NOT e.pending AND e.direction = 'debit'), 0) AS debits,
         coalesce(sum(e.amount_minor) FILTER (WHERE NOT e.pending AND e.direction = 'credit'), 0) AS credits,
         coalesce(sum(e.amount_minor) FILTER (WHERE e.pending AND o.hold_id IS NOT NULL AND e.direction = 'debit'), 0)
           AS pending_debits,
         coalesce(sum(e.amount_minor) FILTER (WHERE e.pending AND o.hold_id IS NOT NULL AND e.direction = 'credit'), 0)
           AS pending_credits,
         count(*) AS entry_count, max(e.account_version) AS version_max
    FROM entries e
    LEFT JOIN open_holds o ON o.tenant_id = e.tenant_id AND o.hold_id = e.transaction_id
   WHERE e.tenant_id = $1 GROUP BY e.account_id
)
SELECT count(*)::int AS count
  FROM accounts a
  LEFT JOIN sums s ON s.account_id = a.id
  LEFT JOIN entries last
         ON last.tenant_id = a.tenant_id AND last.account_id = a.id AND last.account_version = s.version_max
 WHERE a.tenant_id = $1
   AND (coalesce(s.debits, 0) <> a.posted_debits OR coalesce(s.credits, 0) <> a.posted_credits
        OR coalesce(s.pending_debits, 0) <> a.pending_debits OR coalesce(s.pending_credits, 0) <> a.pending_credits
        OR coalesce(s.entry_count, 0) > a.version OR coalesce(s.version_max, 0) > a.version
        OR (s.version_max IS NOT NULL AND last.posted_balance_after IS DISTINCT FROM
            CASE a.normal_balance WHEN 'credit' THEN a.posted_credits - a.posted_debits
                                  ELSE a.posted_debits - a.posted_credits END))`;

export interface BooksCheck {
  label: string;
  netByCurrency: Record<string, string>;
  negativeAccounts: number;
  accountsDisagreeingWithEntries: number;
  ok: boolean;
}

export async function checkBooks(pool: pg.Pool, label: string, tenantId: string): Promise<BooksCheck> {
  const net = await pool.query<{ currency: string; net_minor: string }>(NET_BY_CURRENCY, [tenantId]);
  const negative = await pool.query<{ count: number }>(NEGATIVE_ACCOUNTS, [tenantId]);
  const disagreeing = await pool.query<{ count: number }>(ACCOUNTS_DISAGREEING_WITH_ENTRIES, [tenantId]);
  const netByCurrency = Object.fromEntries(net.rows.map((row) => [row.currency.trim(), row.net_minor]));
  const negativeAccounts = negative.rows[0]!.count;
  const accountsDisagreeingWithEntries = disagreeing.rows[0]!.count;
  const ok =
    Object.values(netByCurrency).every((value) => value === '0') &&
    negativeAccounts === 0 &&
    accountsDisagreeingWithEntries === 0;
  return { label, netByCurrency, negativeAccounts, accountsDisagreeingWithEntries, ok };
}

export function describeCheck(check: BooksCheck): string {
  const nets =
    Object.entries(check.netByCurrency)
      .map(([currency, net]) => `${currency} ${net}`)
      .join(', ') || 'no accounts';
  return (
    `${check.ok ? 'OK  ' : 'FAIL'} ${check.label}: sum(posted_debits - posted_credits) = ${nets}; ` +
    `negative non-allowNegative accounts = ${check.negativeAccounts}; accounts disagreeing with their entries = ` +
    `${check.accountsDisagreeingWithEntries}`
  );
}
