// A source's statement lines by whether a match holds them (GET /v1/statement-lines): the latest
// booking day first, keyset-paged on (booked on, id), at most :limit ids.
//
// Foreign table read here: `statement_lines` (libs/imports), joined with `matches` in the statement, so
// that a page of unmatched lines is one scan of statement_lines_source_booked_idx that stops at :limit
// (each line probing matches_one_per_line), not a read of the matches per line. The lines themselves are
// then read through libs/imports' StatementLineReader.

import { sql } from '@ledger/db';

export type LineStatus = 'matched' | 'unmatched';

export interface LineStatusPage {
  tenantId: string;
  sourceId: string;
  /** 'infinity' and any id for the first page. */
  beforeBookedOn: string;
  beforeId: string;
  limit: number;
}

export interface LineStatusRow {
  id: string;
  booked_on: string;
  matched: boolean;
}

// The match that holds a line, probed per line through matches_one_per_line: LATERAL with LIMIT keeps the
// planner from hashing every match of the table instead (which it prefers for a plain EXISTS it selects).
// It yields a constant, not m.id: the planner reads a column's statistics through the LATERAL, and
// matches.id is never null, so "no match holds it" would be estimated at one line of the whole source.
// With one line expected, the plan that reads the whole source and sorts it costs the same as the index
// scan that stops at :limit, and which one wins turned on the visibility map. A constant has no
// statistics, so the planner expects a share of the lines to be unmatched and keeps the stopping scan.
const HOLDING_MATCH = `LEFT JOIN LATERAL (
  SELECT true AS holds FROM matches m
   WHERE m.tenant_id = l.tenant_id AND m.statement_line_id = l.id AND m.undone_at IS NULL
   LIMIT 1) held ON true`;

// One statement per status (or any), each with a plan of its own.
const linesByStatus = (condition: string) =>
  sql<LineStatusPage, LineStatusRow>(`
SELECT l.id, l.booked_on::text, held.holds IS NOT NULL AS matched
  FROM statement_lines l
  ${HOLDING_MATCH}
 WHERE l.tenant_id = :tenantId AND l.source_id = :sourceId
   AND (l.booked_on, l.id) < (:beforeBookedOn::date, :beforeId::uuid) ${condition}
 ORDER BY l.booked_on DESC, l.id DESC
 LIMIT :limit`);

export const LINES_BY_STATUS = {
  any: linesByStatus(''),
  matched: linesByStatus('AND held.holds IS NOT NULL'),
  unmatched: linesByStatus('AND held.holds IS NULL'),
};
