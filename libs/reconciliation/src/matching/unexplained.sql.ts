// What the rules left unexplained in a source, read after them: each a set-based read of the source's
// lines or of its account's entries against `matches`, at most :limit rows.
//
// Foreign tables read here (anti-joined with `matches` in one statement, for speed; see
// candidates.sql.ts): `statement_lines` (libs/imports), `entries` and `transactions` (libs/ledger).

import { type SqlStatement, sql } from '@ledger/db';
import {
  GROUP_CANDIDATES,
  type MatchScope,
  REFERENCE_CANDIDATES,
  type RuleValues,
  SIGNED_ENTRY,
  UNMATCHED_ENTRY,
  UNMATCHED_LINE,
  amountDateCandidates,
  sidesAgree,
} from './candidates.sql';
import type { Exactness } from './matching.sql';

type Limited = MatchScope & { limit: number };
type RuleLimited = Limited & RuleValues;

export interface MismatchRow {
  line_id: string;
  transaction_id: string;
  field: string;
  reference: string;
  line_amount: string;
  entry_amount: string;
  line_currency: string;
  entry_currency: string;
}

export interface GroupMismatchRow {
  key: string;
  lines: string;
  entries: string;
  line_sum: string;
  entry_sum: string;
  line_currency: string;
  entry_currency: string;
  line_currencies: string;
  entry_currencies: string;
  shared_entries: string;
  line_ids: string[];
  entry_ids: string[];
}

export interface AmbiguousLineRow {
  line_id: string;
  transaction_ids: string[];
}

export interface DuplicateLineRow {
  line_id: string;
  twin_id: string;
  amount: string;
  currency: string;
}

export interface UnmatchedLineRow {
  line_id: string;
  amount: string;
  currency: string;
  booked_on: string;
  description: string;
  refs: Record<string, string>;
}

export interface MissingInStatementRow {
  transaction_id: string;
  leg: number;
  amount: string;
  currency: string;
  effective_on: string;
}

/** How many of the source's lines no match holds yet. */
export const COUNT_UNMATCHED_LINES = sql<MatchScope, { count: bigint }>(`
SELECT count(*)::int8 AS count
  FROM statement_lines l
 WHERE l.tenant_id = :tenantId AND l.source_id = :sourceId AND ${UNMATCHED_LINE}`);

/** A reference that names a transaction whose amount or currency differs: a mismatch, not a match. */
export const REFERENCE_MISMATCHES = sql<Limited, MismatchRow>(`
SELECT c.line_id::text, c.transaction_id::text, c.field, c.reference, c.line_amount::text, c.entry_amount::text,
       c.line_currency, c.entry_currency
  FROM (${REFERENCE_CANDIDATES}) c
 WHERE c.line_amount <> c.entry_amount OR c.line_currency <> c.entry_currency
 LIMIT :limit`);

/**
 * Groups left unmatched: their two sides do not agree (sum beyond tolerance, or currency), or an entry
 * also belongs to another group (ambiguous).
 */
const groupMismatches = (exact: boolean) => `${GROUP_CANDIDATES}
SELECT s.key, s.lines::text AS lines, s.entries::text AS entries, s.line_sum::text AS line_sum,
       s.entry_sum::text AS entry_sum, s.line_currency, s.entry_currency,
       s.line_currencies::text AS line_currencies, s.entry_currencies::text AS entry_currencies,
       s.shared_entries::text AS shared_entries,
       (SELECT array_agg(lm.line_id::text ORDER BY lm.line_id) FROM line_members lm WHERE lm.key = s.key) AS line_ids,
       (SELECT array_agg(em.transaction_id::text || ':' || em.leg ORDER BY em.transaction_id, em.leg)
          FROM entry_members em WHERE em.key = s.key) AS entry_ids
  FROM sides s
 WHERE s.shared_entries > 0 OR NOT (${sidesAgree(exact)})
 ORDER BY s.key
 LIMIT :limit`;

/** Lines left with a candidate that is not unique both ways under the rule (after the rule took the unique ones). */
const ambiguousLines = (exact: boolean) => `
SELECT c.line_id::text AS line_id, array_agg(c.transaction_id::text ORDER BY c.transaction_id) AS transaction_ids
  FROM (${amountDateCandidates(exact)}) c
 GROUP BY c.line_id
 LIMIT :limit`;

const perExactness = <Row extends object>(
  build: (exact: boolean) => string,
): Record<Exactness, SqlStatement<RuleLimited, Row>> => ({
  exact: sql<RuleLimited, Row>(build(true)),
  tolerant: sql<RuleLimited, Row>(build(false)),
});

export const GROUP_MISMATCHES = perExactness<GroupMismatchRow>(groupMismatches);
export const AMBIGUOUS_LINES = perExactness<AmbiguousLineRow>(ambiguousLines);

/** Lines no rule matched, with what a person needs to find the missing posting. */
export const UNMATCHED_LINES = sql<Limited, UnmatchedLineRow>(`
SELECT l.id::text AS line_id, l.amount_minor::text AS amount, l.currency::text AS currency,
       l.booked_on::text AS booked_on, l.description, l.refs
  FROM statement_lines l
 WHERE l.tenant_id = :tenantId AND l.source_id = :sourceId AND ${UNMATCHED_LINE}
 ORDER BY l.booked_on, l.id
 LIMIT :limit`);

/**
 * Entries of the account that no statement line reports, though the source's statements cover their
 * date and they are older than the grace period: the bank should have shown them by now.
 */
export const MISSING_IN_STATEMENT = sql<Limited & { graceDays: number }, MissingInStatementRow>(`
WITH covered AS (
  SELECT min(l.booked_on) AS first_day, max(l.booked_on) AS last_day
    FROM statement_lines l WHERE l.tenant_id = :tenantId AND l.source_id = :sourceId
)
SELECT e.transaction_id::text AS transaction_id, e.leg, ${SIGNED_ENTRY}::text AS amount,
       e.currency::text AS currency, (e.effective_at AT TIME ZONE 'UTC')::date::text AS effective_on
  FROM entries e, covered c
 WHERE e.tenant_id = :tenantId AND e.account_id = :accountId AND NOT e.pending
   AND (e.effective_at AT TIME ZONE 'UTC')::date BETWEEN c.first_day AND c.last_day
   AND e.effective_at < now() - make_interval(days => :graceDays)
   AND ${UNMATCHED_ENTRY}
 ORDER BY e.effective_at
 LIMIT :limit`);

/**
 * Unmatched lines that have an identical twin in the same source (same day, amount, currency,
 * references and description) which did match: the bank reported one movement twice. The unmatched
 * lines are found first (a fence), so the self-join starts from them, not from every line.
 */
export const DUPLICATE_LINES = sql<Limited, DuplicateLineRow>(`
WITH open_lines AS MATERIALIZED (
  SELECT l.tenant_id, l.source_id, l.id, l.booked_on, l.amount_minor, l.currency, l.refs, l.description
    FROM statement_lines l
   WHERE l.tenant_id = :tenantId AND l.source_id = :sourceId AND ${UNMATCHED_LINE}
)
SELECT l.id::text AS line_id, twin.id::text AS twin_id, l.amount_minor::text AS amount, l.currency::text AS currency
  FROM open_lines l
  JOIN statement_lines twin ON twin.tenant_id = l.tenant_id AND twin.source_id = l.source_id AND twin.id <> l.id
                           AND twin.booked_on = l.booked_on AND twin.amount_minor = l.amount_minor
                           AND twin.currency = l.currency AND twin.refs = l.refs AND twin.description = l.description
 WHERE EXISTS (SELECT 1 FROM matches m
                WHERE m.tenant_id = twin.tenant_id AND m.statement_line_id = twin.id AND m.undone_at IS NULL)
 LIMIT :limit`);
