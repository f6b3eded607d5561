// The parts the matching statements share (composed as text, compiled by each statement's sql()).
//
// Foreign tables read here (one set-based statement must join them with `matches`, for speed):
// `statement_lines` (libs/imports), `entries` and `transactions` (libs/ledger).
//
// Every statement is about one source: :tenantId, :sourceId, :accountId (the ledger account the source
// maps to) and :normalBalance (that account's normal side). A statement amount is signed from the
// account holder's view (money in positive); an entry is signed the same way on the account's normal
// side. A rule's values are parameters too; only the rule's shape (exact or with a tolerance, with or
// without a date window) changes the text, so each shape is compiled once.

import { T_HAS_METADATA } from '@ledger/ledger';

/** The source a statement is about. */
export interface MatchScope {
  tenantId: string;
  sourceId: string;
  accountId: string;
  normalBalance: 'debit' | 'credit';
}

/** A rule's values as its statements take them. */
export interface RuleValues {
  /** int8 as text: exact whatever its size. */
  toleranceMinor: string;
  toleranceBps: number;
  windowDays: number;
  lineReference: string | null;
  metadataKey: string | null;
}

export const TOLERANCE_MINOR = ':toleranceMinor::int8';
export const TOLERANCE_BPS = ':toleranceBps::int4';
export const WINDOW_DAYS = ':windowDays::int4';
export const LINE_REFERENCE = ':lineReference::text';
export const METADATA_KEY = ':metadataKey::text';

export const SIGNED_ENTRY = `(CASE WHEN e.direction = :normalBalance THEN e.amount_minor ELSE -e.amount_minor END)`;

export const UNMATCHED_LINE = `NOT EXISTS (
  SELECT 1 FROM matches m WHERE m.tenant_id = l.tenant_id AND m.statement_line_id = l.id AND m.undone_at IS NULL)`;
export const UNMATCHED_ENTRY = `NOT EXISTS (
  SELECT 1 FROM matches m
   WHERE m.tenant_id = e.tenant_id AND m.transaction_id = e.transaction_id AND m.leg = e.leg
     AND m.undone_at IS NULL)`;

/** A line and an entry that were in one match a person undid are never proposed together again. */
export const rejectedPair = (line: string, transaction: string, leg: string) => `EXISTS (
  SELECT 1 FROM matches r JOIN matches r2 ON r2.tenant_id = r.tenant_id AND r2.group_id = r.group_id
   WHERE r.tenant_id = :tenantId AND r.statement_line_id = ${line} AND r.undone_at IS NOT NULL
     AND r2.transaction_id = ${transaction} AND r2.leg = ${leg})`;

/** The most two amounts may differ by under the rule, given the statement's amount. */
const allowance = (statementAmount: string) =>
  `greatest(${TOLERANCE_MINOR}::numeric, floor(abs(${statementAmount})::numeric * ${TOLERANCE_BPS} / 10000))`;

/** The two amounts count as the same under the rule's tolerance. */
export const sameAmount = (exact: boolean, statementAmount: string, ledgerAmount: string) =>
  exact
    ? `${statementAmount} = ${ledgerAmount}`
    : `abs(${statementAmount} - ${ledgerAmount}) <= ${allowance(statementAmount)}`;

export const withinDays = (bookedOn: string, effectiveAt: string) =>
  `abs((${effectiveAt} AT TIME ZONE 'UTC')::date - ${bookedOn}) <= ${WINDOW_DAYS}`;

const TOLERANCE_AMOUNT_EVIDENCE = `'toleranceAmount', ${TOLERANCE_MINOR}::text`;
export const TOLERANCE_EVIDENCE = `${TOLERANCE_AMOUNT_EVIDENCE}, 'toleranceBasisPoints', ${TOLERANCE_BPS}`;

/**
 * A reference the bank or gateway gives (end-to-end id, payout id, ...) names the transaction's
 * externalRef. Driven from the references (a fence keeps the planner from joining lines to entries by
 * amount first, which multiplies the rows by the number of lines sharing an amount).
 */
export const REFERENCE_CANDIDATES = `
WITH refs AS MATERIALIZED (
  SELECT l.id AS line_id, k.key AS field, k.value AS reference, l.amount_minor AS line_amount,
         l.currency::text AS line_currency, l.booked_on
    FROM statement_lines l
   CROSS JOIN LATERAL jsonb_each_text(l.refs) AS k(key, value)
   WHERE l.tenant_id = :tenantId AND l.source_id = :sourceId AND ${UNMATCHED_LINE}
), named AS MATERIALIZED (
  SELECT r.*, t.id AS transaction_id
    FROM refs r JOIN transactions t ON t.tenant_id = :tenantId AND t.external_ref = r.reference
)
SELECT n.line_id, e.transaction_id, e.leg, n.field, n.reference, n.line_amount, n.booked_on, e.effective_at,
       ${SIGNED_ENTRY} AS entry_amount, n.line_currency, e.currency::text AS entry_currency
  FROM named n
  JOIN entries e ON e.tenant_id = :tenantId AND e.transaction_id = n.transaction_id AND e.account_id = :accountId
                AND NOT e.pending
 WHERE ${UNMATCHED_ENTRY}
   AND NOT ${rejectedPair('n.line_id', 'e.transaction_id', 'e.leg')}`;

/**
 * Amount + date candidates: same currency, same signed amount (or within the rule's tolerance), booking
 * date within the window. The unmatched lines are found first (a fence): after the earlier rules the
 * matches table's statistics are stale (it was empty at the run's ANALYZE), and the planner would
 * otherwise pair every line with every entry of the same amount and only then drop the matched ones.
 * For an exact amount the unmatched entries are fenced too and hash-joined; with a tolerance each line
 * probes the account's amounts index for its band instead.
 */
export const amountDateCandidates = (exact: boolean) => {
  const band = allowance('l.amount_minor');
  const entries = exact
    ? `open_entries e ON e.currency = l.currency AND e.amount_minor = abs(l.amount_minor)
                   AND ${SIGNED_ENTRY} = l.amount_minor`
    : `entries e ON e.tenant_id = :tenantId AND e.account_id = :accountId AND NOT e.pending
                 AND e.currency = l.currency
                 AND e.amount_minor BETWEEN abs(l.amount_minor) - ${band} AND abs(l.amount_minor) + ${band}
                 AND (e.direction = :normalBalance) = (l.amount_minor > 0) AND ${UNMATCHED_ENTRY}`;
  return `
WITH open_lines AS MATERIALIZED (
  SELECT l.tenant_id, l.id, l.currency, l.amount_minor, l.booked_on
    FROM statement_lines l
   WHERE l.tenant_id = :tenantId AND l.source_id = :sourceId AND ${UNMATCHED_LINE}
), open_entries AS MATERIALIZED (
  SELECT e.tenant_id, e.transaction_id, e.leg, e.currency, e.amount_minor, e.direction, e.effective_at
    FROM entries e
   WHERE e.tenant_id = :tenantId AND e.account_id = :accountId AND NOT e.pending AND ${UNMATCHED_ENTRY}
)
SELECT l.id AS line_id, e.transaction_id, e.leg, l.booked_on, e.effective_at, l.amount_minor AS line_amount,
       ${SIGNED_ENTRY} AS entry_amount,
       count(*) OVER (PARTITION BY l.id) AS per_line,
       count(*) OVER (PARTITION BY e.transaction_id, e.leg) AS per_entry
  FROM open_lines l
  JOIN ${entries} AND ${withinDays('l.booked_on', 'e.effective_at')}
 WHERE NOT ${rejectedPair('l.id', 'e.transaction_id', 'e.leg')}`;
};

/**
 * Group candidates: the unmatched lines sharing one value of a reference field (a payout id), and the
 * unmatched entries on the account whose transaction has that value as externalRef or under the
 * metadata key. Per value: counts, sums, currencies, and whether an entry also belongs to another value
 * (then neither group is certain).
 */
export const GROUP_CANDIDATES = `
WITH line_members AS MATERIALIZED (
  SELECT l.refs->>${LINE_REFERENCE} AS key, l.id AS line_id, l.amount_minor AS amount, l.currency::text AS currency
    FROM statement_lines l
   WHERE l.tenant_id = :tenantId AND l.source_id = :sourceId AND l.refs ? ${LINE_REFERENCE} AND ${UNMATCHED_LINE}
), keys AS MATERIALIZED (
  SELECT DISTINCT key FROM line_members
), keyed_transactions AS MATERIALIZED (
  SELECT k.key, t.id FROM keys k JOIN transactions t ON t.tenant_id = :tenantId AND t.external_ref = k.key
  UNION
  SELECT k.key, t.id
    FROM keys k
    JOIN transactions t ON t.tenant_id = :tenantId AND t.metadata @> jsonb_build_object(${METADATA_KEY}, k.key)
                       AND ${T_HAS_METADATA}
), entry_members AS MATERIALIZED (
  SELECT kt.key, e.transaction_id, e.leg, ${SIGNED_ENTRY} AS amount, e.currency::text AS currency,
         count(*) OVER (PARTITION BY e.transaction_id, e.leg) AS keys_of_entry
    FROM keyed_transactions kt
    JOIN entries e ON e.tenant_id = :tenantId AND e.transaction_id = kt.id AND e.account_id = :accountId
                  AND NOT e.pending
   WHERE ${UNMATCHED_ENTRY}
), sides AS (
  SELECT l.key, l.lines, l.line_sum, l.line_currencies, l.line_currency,
         e.entries, e.entry_sum, e.entry_currencies, e.entry_currency, e.shared_entries
    FROM (SELECT key, count(*) AS lines, sum(amount) AS line_sum, count(DISTINCT currency) AS line_currencies,
                 min(currency) AS line_currency
            FROM line_members GROUP BY key) l
    JOIN (SELECT key, count(*) AS entries, sum(amount) AS entry_sum, count(DISTINCT currency) AS entry_currencies,
                 min(currency) AS entry_currency, count(*) FILTER (WHERE keys_of_entry > 1) AS shared_entries
            FROM entry_members GROUP BY key) e USING (key)
)`;

/** A group's two sides agree: one currency on both, and sums within the rule's tolerance. */
export const sidesAgree = (exact: boolean) =>
  `s.line_currencies = 1 AND s.entry_currencies = 1 AND s.line_currency = s.entry_currency
   AND ${sameAmount(exact, 's.line_sum', 's.entry_sum')}`;
