import type { MatchingRule } from '../rules/matching-rule';

// Matching statement lines of one source to the posted entries of the ledger account it maps to.
// Every statement: $1 tenant, $2 source id, $3 account id, $4 the account's normal side; then its own.
// A statement amount is signed from the account holder's view (money in positive); an entry is signed
// the same way on the account's normal side. A rule's values are parameters too, written {{name}} in
// the text and numbered after the statement's own by bindRuleParameters; only the rule's shape (exact
// or with a tolerance, with or without a date window) changes the text.

/**
 * Matching is bulk work over whole sources: hash and merge joins are right for it, and a nested loop,
 * chosen on statistics that a run's own inserts have just made stale (the matches table grows by every
 * matched line), turns a set-based pass into a quadratic one. For the rest of the run's transaction only.
 */
export const BULK_PLANS = `SET LOCAL enable_nestloop = off`;
/** For the few statements that probe an index per row by design (amount bands, group keys). */
export const PROBING_PLANS = `SET LOCAL enable_nestloop = on`;

const SIGNED_ENTRY = `(CASE WHEN e.direction = $4 THEN e.amount_minor ELSE -e.amount_minor END)`;

const UNMATCHED_LINE = `NOT EXISTS (SELECT 1 FROM matches m WHERE m.tenant_id = l.tenant_id AND m.statement_line_id = l.id AND m.undone_at IS NULL)`;
const UNMATCHED_ENTRY = `NOT EXISTS (SELECT 1 FROM matches m WHERE m.tenant_id = e.tenant_id AND m.transaction_id = e.transaction_id AND m.leg = e.leg AND m.undone_at IS NULL)`;
/** A line and an entry that were in one match a person undid are never proposed together again. */
const rejectedPair = (line: string, transaction: string, leg: string) => `EXISTS (
  SELECT 1 FROM matches r JOIN matches r2 ON r2.tenant_id = r.tenant_id AND r2.group_id = r.group_id
   WHERE r.tenant_id = $1 AND r.statement_line_id = ${line} AND r.undone_at IS NOT NULL
     AND r2.transaction_id = ${transaction} AND r2.leg = ${leg})`;

/** The rule's values a statement may name, and their SQL types. */
const RULE_PARAMETERS = {
  toleranceMinor: 'int8',
  toleranceBps: 'int4',
  windowDays: 'int4',
  lineReference: 'text',
  metadataKey: 'text',
} as const;
type RuleParameter = keyof typeof RULE_PARAMETERS;
const param = (name: RuleParameter) => `{{${name}}}`;

/**
 * The statement with the rule's {{name}} placeholders numbered from `$first` on, in order of first
 * use, and the rule's values for them.
 */
export function bindRuleParameters(text: string, rule: MatchingRule, first: number): [string, unknown[]] {
  const names: RuleParameter[] = [];
  const bound = text.replace(/\{\{(\w+)\}\}/g, (_, name: RuleParameter) => {
    if (!(name in RULE_PARAMETERS)) throw new Error(`unknown rule parameter ${name}`);
    if (!names.includes(name)) names.push(name);
    return `$${first + names.indexOf(name)}::${RULE_PARAMETERS[name]}`;
  });
  const value = (name: RuleParameter) => (name === 'toleranceMinor' ? rule.toleranceMinor.toString() : rule[name]);
  return [bound, names.map(value)];
}

const exact = (rule: MatchingRule) => rule.toleranceMinor === 0n && rule.toleranceBps === 0;
/** The most two amounts may differ by under the rule, given the statement's amount. */
const allowance = (statementAmount: string) =>
  `greatest(${param('toleranceMinor')}::numeric, floor(abs(${statementAmount})::numeric * ${param('toleranceBps')} / 10000))`;
/** The two amounts count as the same under the rule's tolerance. */
const sameAmount = (rule: MatchingRule, statementAmount: string, ledgerAmount: string) =>
  exact(rule)
    ? `${statementAmount} = ${ledgerAmount}`
    : `abs(${statementAmount} - ${ledgerAmount}) <= ${allowance(statementAmount)}`;
const withinDays = (bookedOn: string, effectiveAt: string) =>
  `abs((${effectiveAt} AT TIME ZONE 'UTC')::date - ${bookedOn}) <= ${param('windowDays')}`;
const TOLERANCE_EVIDENCE = `'toleranceAmount', ${param('toleranceMinor')}::text, 'toleranceBasisPoints', ${param('toleranceBps')}`;

/** A one-to-one match per chosen row: its own id is its group's. */
const insertPairs = (rule: 'reference' | 'amount_date', evidence: string) => `
INSERT INTO matches (tenant_id, id, group_id, statement_line_id, transaction_id, leg, rule, evidence, run_id)
SELECT $1, c.id, c.id, c.line_id, c.transaction_id, c.leg, '${rule}', ${evidence}, $5
  FROM (SELECT gen_random_uuid() AS id, chosen.* FROM chosen) c
ON CONFLICT DO NOTHING`;

/**
 * A reference the bank or gateway gives (end-to-end id, payout id, ...) names the transaction's
 * externalRef. Driven from the references (a fence keeps the planner from joining lines to entries by
 * amount first, which multiplies the rows by the number of lines sharing an amount).
 */
const REFERENCE_CANDIDATES = `
WITH refs AS MATERIALIZED (
  SELECT l.id AS line_id, k.key AS field, k.value AS reference, l.amount_minor AS line_amount,
         l.currency::text AS line_currency, l.booked_on
    FROM statement_lines l
   CROSS JOIN LATERAL jsonb_each_text(l.refs) AS k(key, value)
   WHERE l.tenant_id = $1 AND l.source_id = $2 AND ${UNMATCHED_LINE}
), named AS MATERIALIZED (
  SELECT r.*, t.id AS transaction_id
    FROM refs r JOIN transactions t ON t.tenant_id = $1 AND t.external_ref = r.reference
)
SELECT n.line_id, e.transaction_id, e.leg, n.field, n.reference, n.line_amount, n.booked_on, e.effective_at,
       ${SIGNED_ENTRY} AS entry_amount, n.line_currency, e.currency::text AS entry_currency
  FROM named n
  JOIN entries e ON e.tenant_id = $1 AND e.transaction_id = n.transaction_id AND e.account_id = $3 AND NOT e.pending
 WHERE ${UNMATCHED_ENTRY}
   AND NOT ${rejectedPair('n.line_id', 'e.transaction_id', 'e.leg')}`;

/**
 * Reference rule: a line's reference is a transaction's externalRef, with the same currency and an
 * amount within tolerance (and, when the rule has a window, a date within it). $5 run id. The
 * candidates are computed in full before the first insert (MATERIALIZED): otherwise every "not yet
 * matched" probe would also walk the rows this very statement has inserted so far.
 */
export const matchByReference = (rule: MatchingRule) => `
WITH chosen AS MATERIALIZED (
  SELECT DISTINCT ON (c.line_id) c.line_id, c.transaction_id, c.leg, c.field, c.reference, c.line_amount, c.entry_amount
    FROM (${REFERENCE_CANDIDATES}) c
   WHERE c.line_currency = c.entry_currency AND ${sameAmount(rule, 'c.line_amount', 'c.entry_amount')}
     ${rule.windowDays > 0 ? `AND ${withinDays('c.booked_on', 'c.effective_at')}` : ''}
   ORDER BY c.line_id, c.transaction_id, c.leg
)${insertPairs(
  'reference',
  `jsonb_build_object('field', c.field, 'reference', c.reference, 'amount', c.line_amount::text,
       'ledgerAmount', c.entry_amount::text, ${TOLERANCE_EVIDENCE})`,
)}`;

/** A reference that names a transaction whose amount or currency differs: a mismatch, not a match. $5 limit. */
export const REFERENCE_MISMATCHES = `
SELECT c.line_id::text, c.transaction_id::text, c.field, c.reference, c.line_amount::text, c.entry_amount::text,
       c.line_currency, c.entry_currency
  FROM (${REFERENCE_CANDIDATES}) c
 WHERE c.line_amount <> c.entry_amount OR c.line_currency <> c.entry_currency
 LIMIT $5`;

/**
/**
 * Amount + date candidates: same currency, same signed amount (or within the rule's tolerance), booking
 * date within the window. The unmatched lines are found first (a fence): after the earlier rules the
 * matches table's statistics are stale (it was empty at the run's ANALYZE), and the planner would
 * otherwise pair every line with every entry of the same amount and only then drop the matched ones.
 * For an exact amount the unmatched entries are fenced too and hash-joined; with a tolerance each line
 * probes the account's amounts index for its band instead.
 */
const amountDateCandidates = (rule: MatchingRule) => {
  const entries = exact(rule)
    ? `open_entries e ON e.currency = l.currency AND e.amount_minor = abs(l.amount_minor) AND ${SIGNED_ENTRY} = l.amount_minor`
    : `entries e ON e.tenant_id = $1 AND e.account_id = $3 AND NOT e.pending AND e.currency = l.currency
                 AND e.amount_minor BETWEEN abs(l.amount_minor) - ${allowance('l.amount_minor')} AND abs(l.amount_minor) + ${allowance('l.amount_minor')}
                 AND (e.direction = $4) = (l.amount_minor > 0) AND ${UNMATCHED_ENTRY}`;
  return `
WITH open_lines AS MATERIALIZED (
  SELECT l.tenant_id, l.id, l.currency, l.amount_minor, l.booked_on
    FROM statement_lines l
   WHERE l.tenant_id = $1 AND l.source_id = $2 AND ${UNMATCHED_LINE}
), open_entries AS MATERIALIZED (
  SELECT e.tenant_id, e.transaction_id, e.leg, e.currency, e.amount_minor, e.direction, e.effective_at
    FROM entries e
   WHERE e.tenant_id = $1 AND e.account_id = $3 AND NOT e.pending AND ${UNMATCHED_ENTRY}
)
SELECT l.id AS line_id, e.transaction_id, e.leg, l.booked_on, e.effective_at, l.amount_minor AS line_amount, ${SIGNED_ENTRY} AS entry_amount,
       count(*) OVER (PARTITION BY l.id) AS per_line,
       count(*) OVER (PARTITION BY e.transaction_id, e.leg) AS per_entry
  FROM open_lines l
  JOIN ${entries} AND ${withinDays('l.booked_on', 'e.effective_at')}
 WHERE NOT ${rejectedPair('l.id', 'e.transaction_id', 'e.leg')}`;
};

/** Amount + date rule: only a candidate unique both ways; anything else is ambiguous, never a coin toss. $5 run. */
export const matchByAmountDate = (rule: MatchingRule) => `
WITH chosen AS MATERIALIZED (
  SELECT c.line_id, c.transaction_id, c.leg, c.booked_on, c.effective_at, c.line_amount, c.entry_amount
    FROM (${amountDateCandidates(rule)}) c
   WHERE c.per_line = 1 AND c.per_entry = 1
)${insertPairs(
  'amount_date',
  `jsonb_build_object('bookedOn', c.booked_on, 'effectiveAt', c.effective_at, 'windowDays', ${param('windowDays')},
       'amount', c.line_amount::text, 'ledgerAmount', c.entry_amount::text, ${TOLERANCE_EVIDENCE})`,
)}`;

/** Lines left with a candidate that is not unique both ways under the rule (after the rule took the unique ones). $5 limit. */
export const ambiguousLines = (rule: MatchingRule) => `
SELECT c.line_id::text AS line_id, array_agg(c.transaction_id::text ORDER BY c.transaction_id) AS transaction_ids
  FROM (${amountDateCandidates(rule)}) c
 GROUP BY c.line_id
 LIMIT $5`;

/**
 * Group candidates: the unmatched lines sharing one value of a reference field (a payout id), and the
 * unmatched entries on the account whose transaction has that value as externalRef or under the
 * metadata key. Per value: counts, sums, currencies, and whether an entry also belongs to another value
 * (then neither group is certain).
 */
const groupCandidates = () => {
  const field = param('lineReference');
  const metadataKey = param('metadataKey');
  return `
WITH line_members AS MATERIALIZED (
  SELECT l.refs->>${field} AS key, l.id AS line_id, l.amount_minor AS amount, l.currency::text AS currency
    FROM statement_lines l
   WHERE l.tenant_id = $1 AND l.source_id = $2 AND l.refs ? ${field} AND ${UNMATCHED_LINE}
), keys AS MATERIALIZED (
  SELECT DISTINCT key FROM line_members
), keyed_transactions AS MATERIALIZED (
  SELECT k.key, t.id FROM keys k JOIN transactions t ON t.tenant_id = $1 AND t.external_ref = k.key
  UNION
  SELECT k.key, t.id FROM keys k JOIN transactions t ON t.tenant_id = $1 AND t.metadata @> jsonb_build_object(${metadataKey}, k.key)
), entry_members AS MATERIALIZED (
  SELECT kt.key, e.transaction_id, e.leg, ${SIGNED_ENTRY} AS amount, e.currency::text AS currency,
         count(*) OVER (PARTITION BY e.transaction_id, e.leg) AS keys_of_entry
    FROM keyed_transactions kt
    JOIN entries e ON e.tenant_id = $1 AND e.transaction_id = kt.id AND e.account_id = $3 AND NOT e.pending
   WHERE ${UNMATCHED_ENTRY}
), sides AS (
  SELECT l.key, l.lines, l.line_sum, l.line_currencies, l.line_currency, e.entries, e.entry_sum, e.entry_currencies, e.entry_currency, e.shared_entries
    FROM (SELECT key, count(*) AS lines, sum(amount) AS line_sum, count(DISTINCT currency) AS line_currencies, min(currency) AS line_currency
            FROM line_members GROUP BY key) l
    JOIN (SELECT key, count(*) AS entries, sum(amount) AS entry_sum, count(DISTINCT currency) AS entry_currencies, min(currency) AS entry_currency,
                 count(*) FILTER (WHERE keys_of_entry > 1) AS shared_entries
            FROM entry_members GROUP BY key) e USING (key)
)`;
};

/** A group is certain: one currency on both sides, no entry shared with another group, no undone pair. */
const certainGroup = (rule: MatchingRule) => `
  s.line_currencies = 1 AND s.entry_currencies = 1 AND s.line_currency = s.entry_currency AND s.shared_entries = 0
  AND NOT EXISTS (SELECT 1 FROM line_members lm JOIN entry_members em ON em.key = lm.key
                   WHERE lm.key = s.key AND ${rejectedPair('lm.line_id', 'em.transaction_id', 'em.leg')})
  AND ${sameAmount(rule, 's.line_sum', 's.entry_sum')}`;

/**
 * Group rule: every group whose sums agree becomes one match of all its lines and entries (one-to-many,
 * many-to-one or many-to-many), stored as max(lines, entries) rows of the group. $5 run id.
 */
export const matchGroups = (rule: MatchingRule) => `${groupCandidates()},
chosen AS MATERIALIZED (
  SELECT s.*, gen_random_uuid() AS group_id FROM sides s WHERE ${certainGroup(rule)}
), numbered_lines AS (
  SELECT lm.key, lm.line_id, row_number() OVER (PARTITION BY lm.key ORDER BY lm.line_id) AS n FROM line_members lm JOIN chosen USING (key)
), numbered_entries AS (
  SELECT em.key, em.transaction_id, em.leg, row_number() OVER (PARTITION BY em.key ORDER BY em.transaction_id, em.leg) AS n
    FROM entry_members em JOIN chosen USING (key)
)
INSERT INTO matches (tenant_id, id, group_id, statement_line_id, transaction_id, leg, rule, evidence, run_id)
SELECT $1, gen_random_uuid(), c.group_id, nl.line_id, ne.transaction_id, ne.leg, 'group',
       jsonb_build_object('field', ${param('lineReference')}, 'reference', c.key, 'metadataKey', ${param('metadataKey')},
                          'lines', c.lines, 'entries', c.entries, 'amount', c.line_sum::text, 'ledgerAmount', c.entry_sum::text,
                          ${TOLERANCE_EVIDENCE}),
       $5
  FROM numbered_lines nl FULL JOIN numbered_entries ne ON ne.key = nl.key AND ne.n = nl.n
  JOIN chosen c ON c.key = coalesce(nl.key, ne.key)
ON CONFLICT DO NOTHING`;

/**
 * Groups left unmatched: their two sides do not agree (sum beyond tolerance, or currency), or an entry
 * also belongs to another group (ambiguous). $5 limit.
 */
export const groupMismatches = (rule: MatchingRule) => `${groupCandidates()}
SELECT s.key, s.lines::text AS lines, s.entries::text AS entries, s.line_sum::text AS line_sum, s.entry_sum::text AS entry_sum,
       s.line_currency, s.entry_currency, s.line_currencies::text AS line_currencies, s.entry_currencies::text AS entry_currencies,
       s.shared_entries::text AS shared_entries,
       (SELECT array_agg(lm.line_id::text ORDER BY lm.line_id) FROM line_members lm WHERE lm.key = s.key) AS line_ids,
       (SELECT array_agg(em.transaction_id::text || ':' || em.leg ORDER BY em.transaction_id, em.leg) FROM entry_members em WHERE em.key = s.key) AS entry_ids
  FROM sides s
 WHERE s.shared_entries > 0
    OR NOT (s.line_currencies = 1 AND s.entry_currencies = 1 AND s.line_currency = s.entry_currency AND ${sameAmount(rule, 's.line_sum', 's.entry_sum')})
 ORDER BY s.key
 LIMIT $5`;

/**
 * Reversal rule: an unmatched line cancelled by a later unmatched line of the same source with the
 * opposite amount, the same currency and the same (non-empty) references, each line in one such pair
 * only: the two lines are one match of no ledger entry. (Lines are ordered by booking date, then by
 * id, which is the order they were imported in.) Lines only: $1 tenant, $2 source, $3 run id.
 */
export const MATCH_REVERSALS = `
WITH open_lines AS MATERIALIZED (
  SELECT l.id, l.amount_minor, l.currency, l.refs, l.booked_on
    FROM statement_lines l
   WHERE l.tenant_id = $1 AND l.source_id = $2 AND l.refs <> '{}' AND ${UNMATCHED_LINE}
), pairs AS MATERIALIZED (
  SELECT o.id AS original_id, c.id AS correction_id, o.amount_minor, o.refs
    FROM open_lines o
    JOIN open_lines c ON c.refs = o.refs AND c.currency = o.currency AND c.amount_minor = -o.amount_minor
                     AND (c.booked_on, c.id) > (o.booked_on, o.id)
), uses AS (
  SELECT id, count(*) AS pairs FROM (SELECT original_id AS id FROM pairs UNION ALL SELECT correction_id FROM pairs) u GROUP BY id
), chosen AS MATERIALIZED (
  SELECT p.*, gen_random_uuid() AS group_id
    FROM pairs p
    JOIN uses o ON o.id = p.original_id AND o.pairs = 1
    JOIN uses c ON c.id = p.correction_id AND c.pairs = 1
)
INSERT INTO matches (tenant_id, id, group_id, statement_line_id, rule, evidence, run_id)
SELECT $1, gen_random_uuid(), c.group_id, side.line_id, 'reversal',
       jsonb_build_object('references', c.refs, 'amount', c.amount_minor::text, 'original', c.original_id, 'reversedBy', c.correction_id), $3
  FROM chosen c CROSS JOIN LATERAL (VALUES (c.original_id), (c.correction_id)) AS side(line_id)
ON CONFLICT DO NOTHING`;

/** How many of the source's lines no match holds yet. $1 tenant, $2 source. */
export const COUNT_UNMATCHED_LINES = `
SELECT count(*)::int8 AS count FROM statement_lines l WHERE l.tenant_id = $1 AND l.source_id = $2 AND ${UNMATCHED_LINE}`;

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
