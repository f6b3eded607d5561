// The matching rules' statements: each inserts the matches it is sure of, in one set-based statement,
// and answers how many statement lines it matched.
//
// Foreign tables read here (joined with `matches` in one statement, for speed; see the exceptions in
// candidates.sql.ts), and analysed by REFRESH_STATISTICS: `statement_lines` (libs/imports), `entries`
// and `transactions` (libs/ledger).

import { type NoParams, type SqlStatement, sql } from '@ledger/db';
import {
  GROUP_CANDIDATES,
  LINE_REFERENCE,
  METADATA_KEY,
  type MatchScope,
  REFERENCE_CANDIDATES,
  type RuleValues,
  TOLERANCE_EVIDENCE,
  UNMATCHED_LINE,
  WINDOW_DAYS,
  amountDateCandidates,
  rejectedPair,
  sameAmount,
  withinDays,
} from './candidates.sql';

/**
 * Matching is bulk work over whole sources: hash and merge joins are right for it, and a nested loop,
 * chosen on statistics that a run's own inserts have just made stale (the matches table grows by every
 * matched line), turns a set-based pass into a quadratic one. For the rest of the step's transaction only.
 */
export const BULK_PLANS = sql<NoParams>('SET LOCAL enable_nestloop = off');
/** For the few statements that probe an index per row by design (amount bands, group keys). */
export const PROBING_PLANS = sql<NoParams>('SET LOCAL enable_nestloop = on');

/**
 * A run's statements are bulk work over whole tables: a set-based match of a million lines can take
 * longer than the pool's statement timeout, which is sized for requests. For each step's transaction only.
 */
export const RUN_STATEMENT_TIMEOUT = sql<NoParams>(`SET LOCAL statement_timeout = '15min'`);

/**
 * Fresh planner statistics for the tables a run joins: after a large import the row counts can be far
 * from what the planner last saw (autovacuum may be slow or off), and a plan made for a handful of rows
 * turns a set-based match of a million lines into a nested loop over all pairs. Sampled, so bounded.
 */
export const REFRESH_STATISTICS = sql<NoParams>('ANALYZE statement_lines, entries, transactions, matches');

export type RuleParams = MatchScope & RuleValues & { runId: string };
export type MatchStatement = SqlStatement<RuleParams, { count: bigint }>;

/** Statement lines the insert matched (a group's rows without a line are not counted). */
const countingLines = (insert: string): MatchStatement =>
  sql<RuleParams, { count: bigint }>(`
WITH inserted AS (${insert}
RETURNING statement_line_id)
SELECT count(statement_line_id)::int8 AS count FROM inserted`);

/** A one-to-one match per chosen row: its own id is its group's. */
const insertPairs = (rule: 'reference' | 'amount_date', evidence: string) => `
INSERT INTO matches (tenant_id, id, group_id, statement_line_id, transaction_id, leg, rule, evidence, run_id)
SELECT :tenantId, c.id, c.id, c.line_id, c.transaction_id, c.leg, '${rule}', ${evidence}, :runId
  FROM (SELECT gen_random_uuid() AS id, chosen.* FROM chosen) c
ON CONFLICT DO NOTHING`;

/**
 * Reference rule: a line's reference is a transaction's externalRef, with the same currency and an
 * amount within tolerance (and, when the rule has a window, a date within it). The candidates are
 * computed in full before the first insert (MATERIALIZED): otherwise every "not yet matched" probe
 * would also walk the rows this very statement has inserted so far.
 */
const matchByReference = (exact: boolean, windowed: boolean) => `
WITH chosen AS MATERIALIZED (
  SELECT DISTINCT ON (c.line_id)
         c.line_id, c.transaction_id, c.leg, c.field, c.reference, c.line_amount, c.entry_amount
    FROM (${REFERENCE_CANDIDATES}) c
   WHERE c.line_currency = c.entry_currency AND ${sameAmount(exact, 'c.line_amount', 'c.entry_amount')}
     ${windowed ? `AND ${withinDays('c.booked_on', 'c.effective_at')}` : ''}
   ORDER BY c.line_id, c.transaction_id, c.leg
)${insertPairs(
  'reference',
  `jsonb_build_object('field', c.field, 'reference', c.reference, 'amount', c.line_amount::text,
       'ledgerAmount', c.entry_amount::text, ${TOLERANCE_EVIDENCE})`,
)}`;

/** Amount + date rule: only a candidate unique both ways; anything else is ambiguous, never a coin toss. */
const matchByAmountDate = (exact: boolean) => `
WITH chosen AS MATERIALIZED (
  SELECT c.line_id, c.transaction_id, c.leg, c.booked_on, c.effective_at, c.line_amount, c.entry_amount
    FROM (${amountDateCandidates(exact)}) c
   WHERE c.per_line = 1 AND c.per_entry = 1
)${insertPairs(
  'amount_date',
  `jsonb_build_object('bookedOn', c.booked_on, 'effectiveAt', c.effective_at, 'windowDays', ${WINDOW_DAYS},
       'amount', c.line_amount::text, 'ledgerAmount', c.entry_amount::text, ${TOLERANCE_EVIDENCE})`,
)}`;

/**
 * Group rule: every group whose sums agree becomes one match of all its lines and entries (one-to-many,
 * many-to-one or many-to-many), stored as max(lines, entries) rows of the group. A group is certain:
 * one currency on both sides, no entry shared with another group, no undone pair.
 */
const matchGroups = (exact: boolean) => `${GROUP_CANDIDATES},
chosen AS MATERIALIZED (
  SELECT s.*, gen_random_uuid() AS group_id
    FROM sides s
   WHERE s.line_currencies = 1 AND s.entry_currencies = 1 AND s.line_currency = s.entry_currency
     AND s.shared_entries = 0
     AND NOT EXISTS (SELECT 1 FROM line_members lm JOIN entry_members em ON em.key = lm.key
                      WHERE lm.key = s.key AND ${rejectedPair('lm.line_id', 'em.transaction_id', 'em.leg')})
     AND ${sameAmount(exact, 's.line_sum', 's.entry_sum')}
), numbered_lines AS (
  SELECT lm.key, lm.line_id, row_number() OVER (PARTITION BY lm.key ORDER BY lm.line_id) AS n
    FROM line_members lm JOIN chosen USING (key)
), numbered_entries AS (
  SELECT em.key, em.transaction_id, em.leg,
         row_number() OVER (PARTITION BY em.key ORDER BY em.transaction_id, em.leg) AS n
    FROM entry_members em JOIN chosen USING (key)
)
INSERT INTO matches (tenant_id, id, group_id, statement_line_id, transaction_id, leg, rule, evidence, run_id)
SELECT :tenantId, gen_random_uuid(), c.group_id, nl.line_id, ne.transaction_id, ne.leg, 'group',
       jsonb_build_object('field', ${LINE_REFERENCE}, 'reference', c.key, 'metadataKey', ${METADATA_KEY},
                          'lines', c.lines, 'entries', c.entries, 'amount', c.line_sum::text,
                          'ledgerAmount', c.entry_sum::text, ${TOLERANCE_EVIDENCE}),
       :runId
  FROM numbered_lines nl FULL JOIN numbered_entries ne ON ne.key = nl.key AND ne.n = nl.n
  JOIN chosen c ON c.key = coalesce(nl.key, ne.key)
ON CONFLICT DO NOTHING`;

/**
 * Reversal rule: an unmatched line cancelled by a later unmatched line of the same source with the
 * opposite amount, the same currency and the same (non-empty) references, each line in one such pair
 * only: the two lines are one match of no ledger entry. (Lines are ordered by booking date, then by
 * id, which is the order they were imported in.) Lines only.
 */
const MATCH_REVERSALS = `
WITH open_lines AS MATERIALIZED (
  SELECT l.id, l.amount_minor, l.currency, l.refs, l.booked_on
    FROM statement_lines l
   WHERE l.tenant_id = :tenantId AND l.source_id = :sourceId AND l.refs <> '{}' AND ${UNMATCHED_LINE}
), pairs AS MATERIALIZED (
  SELECT o.id AS original_id, c.id AS correction_id, o.amount_minor, o.refs
    FROM open_lines o
    JOIN open_lines c ON c.refs = o.refs AND c.currency = o.currency AND c.amount_minor = -o.amount_minor
                     AND (c.booked_on, c.id) > (o.booked_on, o.id)
), uses AS (
  SELECT id, count(*) AS pairs
    FROM (SELECT original_id AS id FROM pairs UNION ALL SELECT correction_id FROM pairs) u
   GROUP BY id
), chosen AS MATERIALIZED (
  SELECT p.*, gen_random_uuid() AS group_id
    FROM pairs p
    JOIN uses o ON o.id = p.original_id AND o.pairs = 1
    JOIN uses c ON c.id = p.correction_id AND c.pairs = 1
)
INSERT INTO matches (tenant_id, id, group_id, statement_line_id, rule, evidence, run_id)
SELECT :tenantId, gen_random_uuid(), c.group_id, side.line_id, 'reversal',
       jsonb_build_object('references', c.refs, 'amount', c.amount_minor::text, 'original', c.original_id,
                          'reversedBy', c.correction_id),
       :runId
  FROM chosen c CROSS JOIN LATERAL (VALUES (c.original_id), (c.correction_id)) AS side(line_id)
ON CONFLICT DO NOTHING`;

/** An exact rule compares amounts with `=` (hash joins); a tolerant one compares bands. */
export type Exactness = 'exact' | 'tolerant';

const perExactness = (build: (exact: boolean) => string): Record<Exactness, MatchStatement> => ({
  exact: countingLines(build(true)),
  tolerant: countingLines(build(false)),
});

/** Each rule type's statement per shape, compiled once. */
export const MATCH_BY_REFERENCE: Record<Exactness, { anyDay: MatchStatement; window: MatchStatement }> = {
  exact: { anyDay: countingLines(matchByReference(true, false)), window: countingLines(matchByReference(true, true)) },
  tolerant: {
    anyDay: countingLines(matchByReference(false, false)),
    window: countingLines(matchByReference(false, true)),
  },
};
export const MATCH_BY_AMOUNT_DATE = perExactness(matchByAmountDate);
export const MATCH_GROUPS = perExactness(matchGroups);
export const MATCH_REVERSALS_COUNTED = countingLines(MATCH_REVERSALS);
