// Matching statement lines of one source to the posted entries of the ledger account it maps to.
// Every statement: $1 tenant, $2 source id, $3 account id, $4 the account's normal side; then its own.
// A statement amount is signed from the account holder's view (money in positive); an entry is signed
// the same way on the account's normal side.

/**
 * Matching is bulk work over whole sources: hash and merge joins are right for it, and a nested loop,
 * chosen on statistics that a run's own inserts have just made stale (the matches table grows by every
 * matched line), turns a set-based pass into a quadratic one. For the rest of the run's transaction only.
 */
export const BULK_PLANS = `SET LOCAL enable_nestloop = off`;

const SIGNED_ENTRY = `(CASE WHEN e.direction = $4 THEN e.amount_minor ELSE -e.amount_minor END)`;

const UNMATCHED_LINE = `NOT EXISTS (SELECT 1 FROM matches m WHERE m.tenant_id = l.tenant_id AND m.statement_line_id = l.id AND m.undone_at IS NULL)`;
const UNMATCHED_ENTRY = `NOT EXISTS (SELECT 1 FROM matches m WHERE m.tenant_id = e.tenant_id AND m.transaction_id = e.transaction_id AND m.leg = e.leg AND m.undone_at IS NULL)`;
/** A pair a person already undid is never proposed again. */
const NOT_REJECTED = `NOT EXISTS (SELECT 1 FROM matches r WHERE r.tenant_id = l.tenant_id AND r.statement_line_id = l.id
                        AND r.transaction_id = e.transaction_id AND r.leg = e.leg AND r.undone_at IS NOT NULL)`;

/**
 * A reference the bank or gateway gives (end-to-end id, payout id, ...) names the transaction's
 * externalRef. Driven from the references (a fence keeps the planner from joining lines to entries by
 * amount first, which multiplies the rows by the number of lines sharing an amount).
 */
const REFERENCE_CANDIDATES = `
WITH refs AS MATERIALIZED (
  SELECT l.id AS line_id, k.key AS field, k.value AS reference, l.amount_minor AS line_amount, l.currency::text AS line_currency
    FROM statement_lines l
   CROSS JOIN LATERAL jsonb_each_text(l.refs) AS k(key, value)
   WHERE l.tenant_id = $1 AND l.source_id = $2 AND ${UNMATCHED_LINE}
), named AS MATERIALIZED (
  SELECT r.*, t.id AS transaction_id
    FROM refs r JOIN transactions t ON t.tenant_id = $1 AND t.external_ref = r.reference
)
SELECT n.line_id, e.transaction_id, e.leg, n.field, n.reference, n.line_amount,
       ${SIGNED_ENTRY} AS entry_amount, n.line_currency, e.currency::text AS entry_currency
  FROM named n
  JOIN entries e ON e.tenant_id = $1 AND e.transaction_id = n.transaction_id AND e.account_id = $3 AND NOT e.pending
 WHERE ${UNMATCHED_ENTRY}
   AND NOT EXISTS (SELECT 1 FROM matches r WHERE r.tenant_id = $1 AND r.statement_line_id = n.line_id
                     AND r.transaction_id = e.transaction_id AND r.leg = e.leg AND r.undone_at IS NOT NULL)`;

/**
 * Rule 1: exact reference with equal amount and currency. $5 run id. The candidates are computed in
 * full before the first insert (MATERIALIZED): otherwise every "not yet matched" probe would also
 * walk the rows this very statement has inserted so far, quadratic in the number of lines.
 */
export const MATCH_BY_REFERENCE = `
WITH chosen AS MATERIALIZED (
  SELECT DISTINCT ON (c.line_id) c.line_id, c.transaction_id, c.leg, c.field, c.reference, c.line_amount
    FROM (${REFERENCE_CANDIDATES}) c
   WHERE c.line_amount = c.entry_amount AND c.line_currency = c.entry_currency
   ORDER BY c.line_id, c.transaction_id, c.leg
)
INSERT INTO matches (tenant_id, id, statement_line_id, transaction_id, leg, rule, evidence, run_id)
SELECT $1, gen_random_uuid(), c.line_id, c.transaction_id, c.leg, 'reference',
       jsonb_build_object('field', c.field, 'reference', c.reference, 'amount', c.line_amount::text), $5
  FROM chosen c
ON CONFLICT DO NOTHING`;

/** A reference that names a transaction whose amount or currency differs: a mismatch, not a match. $5 limit. */
export const REFERENCE_MISMATCHES = `
SELECT c.line_id::text, c.transaction_id::text, c.field, c.reference, c.line_amount::text, c.entry_amount::text,
       c.line_currency, c.entry_currency
  FROM (${REFERENCE_CANDIDATES}) c
 WHERE c.line_amount <> c.entry_amount OR c.line_currency <> c.entry_currency
 LIMIT $5`;

/**
 * Rule 2 candidates: equal signed amount and currency, booking date within `window` days of the
 * effective date. The unmatched lines and entries are found first (fences): after rule 1 the matches
 * table's statistics are stale (it was empty at the run's ANALYZE), and the planner would otherwise
 * pair every line with every entry of the same amount and only then drop the matched ones.
 */
const amountDateCandidates = (window: string) => `
WITH open_lines AS MATERIALIZED (
  SELECT l.tenant_id, l.id, l.currency, l.amount_minor, l.booked_on
    FROM statement_lines l
   WHERE l.tenant_id = $1 AND l.source_id = $2 AND ${UNMATCHED_LINE}
), open_entries AS MATERIALIZED (
  SELECT e.tenant_id, e.transaction_id, e.leg, e.currency, e.amount_minor, e.direction, e.effective_at
    FROM entries e
   WHERE e.tenant_id = $1 AND e.account_id = $3 AND NOT e.pending AND ${UNMATCHED_ENTRY}
)
SELECT l.id AS line_id, e.transaction_id, e.leg, l.booked_on, e.effective_at,
       count(*) OVER (PARTITION BY l.id) AS per_line,
       count(*) OVER (PARTITION BY e.transaction_id, e.leg) AS per_entry
  FROM open_lines l
  JOIN open_entries e ON e.currency = l.currency AND e.amount_minor = abs(l.amount_minor)
                     AND ${SIGNED_ENTRY} = l.amount_minor
                     AND abs((e.effective_at AT TIME ZONE 'UTC')::date - l.booked_on) <= ${window}::int
 WHERE ${NOT_REJECTED}`;

/** Rule 2: only when the candidate is unique both ways; anything else is ambiguous, never a coin toss. $5 run, $6 window. */
export const MATCH_BY_AMOUNT_DATE = `
WITH chosen AS MATERIALIZED (
  SELECT c.line_id, c.transaction_id, c.leg, c.booked_on, c.effective_at
    FROM (${amountDateCandidates('$6')}) c
   WHERE c.per_line = 1 AND c.per_entry = 1
)
INSERT INTO matches (tenant_id, id, statement_line_id, transaction_id, leg, rule, evidence, run_id)
SELECT $1, gen_random_uuid(), c.line_id, c.transaction_id, c.leg, 'amount_date',
       jsonb_build_object('bookedOn', c.booked_on, 'effectiveAt', c.effective_at, 'windowDays', $6::int), $5
  FROM chosen c
ON CONFLICT DO NOTHING`;

/** Lines left with more than one candidate (after rule 2 took the unique ones). $5 window, $6 limit. */
export const AMBIGUOUS_LINES = `
SELECT c.line_id::text AS line_id, array_agg(c.transaction_id::text ORDER BY c.transaction_id) AS transaction_ids
  FROM (${amountDateCandidates('$5')}) c
 GROUP BY c.line_id
 LIMIT $6`;

/** Lines no rule matched, with what a person needs to find the missing posting. $3 limit (no account). */
export const UNMATCHED_LINES = `
SELECT l.id::text AS line_id, l.amount_minor::text AS amount, l.currency::text AS currency, l.booked_on::text AS booked_on,
       l.description, l.refs
  FROM statement_lines l
 WHERE l.tenant_id = $1 AND l.source_id = $2 AND ${UNMATCHED_LINE}
 ORDER BY l.booked_on, l.id
 LIMIT $3`;

export const SOURCES_OF_TENANT = `
SELECT s.id, s.name, s.account_id, a.code AS account_code, a.normal_balance
  FROM statement_sources s JOIN accounts a ON a.tenant_id = s.tenant_id AND a.id = s.account_id
 WHERE s.tenant_id = $1 ORDER BY s.name LIMIT $2`;

/**
 * Entries of the account that no statement line reports, though the source's statements cover their
 * date and they are older than the grace period: the bank should have shown them by now.
 * $5 grace in days, $6 limit.
 */
export const MISSING_IN_STATEMENT = `
WITH covered AS (
  SELECT min(l.booked_on) AS first_day, max(l.booked_on) AS last_day
    FROM statement_lines l WHERE l.tenant_id = $1 AND l.source_id = $2
)
SELECT e.transaction_id::text AS transaction_id, e.leg, ${SIGNED_ENTRY}::text AS amount,
       e.currency::text AS currency, (e.effective_at AT TIME ZONE 'UTC')::date::text AS effective_on
  FROM entries e, covered c
 WHERE e.tenant_id = $1 AND e.account_id = $3 AND NOT e.pending
   AND (e.effective_at AT TIME ZONE 'UTC')::date BETWEEN c.first_day AND c.last_day
   AND e.effective_at < now() - make_interval(days => $5)
   AND ${UNMATCHED_ENTRY}
 ORDER BY e.effective_at
 LIMIT $6`;

/**
 * Unmatched lines that have an identical twin in the same source (same day, amount, currency,
 * references and description) which did match: the bank reported one movement twice. The unmatched
 * lines are found first (a fence), so the self-join starts from them, not from every line. $3 limit.
 */
export const DUPLICATE_LINES = `
WITH open_lines AS MATERIALIZED (
  SELECT l.tenant_id, l.source_id, l.id, l.booked_on, l.amount_minor, l.currency, l.refs, l.description
    FROM statement_lines l
   WHERE l.tenant_id = $1 AND l.source_id = $2 AND ${UNMATCHED_LINE}
)
SELECT l.id::text AS line_id, twin.id::text AS twin_id, l.amount_minor::text AS amount, l.currency::text AS currency
  FROM open_lines l
  JOIN statement_lines twin ON twin.tenant_id = l.tenant_id AND twin.source_id = l.source_id AND twin.id <> l.id
                           AND twin.booked_on = l.booked_on AND twin.amount_minor = l.amount_minor
                           AND twin.currency = l.currency AND twin.refs = l.refs AND twin.description = l.description
 WHERE EXISTS (SELECT 1 FROM matches m WHERE m.tenant_id = twin.tenant_id AND m.statement_line_id = twin.id AND m.undone_at IS NULL)
 LIMIT $3`;
