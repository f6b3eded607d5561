// A person's side of matching: explain, match by hand, confirm, undo. A match is a group of rows of
// `matches` sharing group_id (see the migration match_groups); its id is the group id.

/** Members shown per match; the evidence keeps the full counts and sums of a larger group. */
export const MATCH_MEMBERS_SHOWN_MAX = 1_000;

const MEMBER_ROWS = `
SELECT m.group_id, m.statement_line_id, m.transaction_id, m.leg, m.rule, m.evidence, m.run_id, m.created_by, m.created_at,
       m.confirmed_by, m.confirmed_at, m.undone_by, m.undone_at, m.note,
       l.amount_minor::text AS line_amount, l.currency::text AS line_currency, l.booked_on::text AS booked_on,
       e.amount_minor::text AS entry_amount, e.direction AS entry_direction, e.currency::text AS entry_currency
  FROM matches m
  LEFT JOIN statement_lines l ON l.tenant_id = m.tenant_id AND l.id = m.statement_line_id
  LEFT JOIN entries e ON e.tenant_id = m.tenant_id AND e.transaction_id = m.transaction_id AND e.leg = m.leg`;

/** Every match of a line or of a transaction, undone ones included (the full story), with all members. */
export const LIST_MATCHES = `
WITH named AS (
  SELECT DISTINCT group_id FROM matches
   WHERE tenant_id = $1 AND ($2::uuid IS NULL OR statement_line_id = $2) AND ($3::uuid IS NULL OR transaction_id = $3)
   LIMIT 200
)
SELECT * FROM (
  SELECT r.*, row_number() OVER (PARTITION BY r.group_id ORDER BY r.statement_line_id, r.transaction_id, r.leg) AS member
    FROM (${MEMBER_ROWS} WHERE m.tenant_id = $1 AND m.group_id IN (SELECT group_id FROM named)) r
) shown
 WHERE member <= ${MATCH_MEMBERS_SHOWN_MAX}
 ORDER BY created_at, group_id, member`;

export const FIND_MATCH = `${MEMBER_ROWS} WHERE m.tenant_id = $1 AND m.group_id = $2
 ORDER BY m.statement_line_id, m.transaction_id, m.leg LIMIT ${MATCH_MEMBERS_SHOWN_MAX}`;

/** The named lines with the ledger account their source maps to. */
export const LINES_WITH_ACCOUNT = `
SELECT l.id::text AS line_id, s.account_id::text AS account_id
  FROM statement_lines l JOIN statement_sources s ON s.tenant_id = l.tenant_id AND s.id = l.source_id
 WHERE l.tenant_id = $1 AND l.id = ANY($2::uuid[])`;

/** The posted entries of the named transactions on one account. */
export const ENTRIES_ON_ACCOUNT = `
SELECT e.transaction_id::text AS transaction_id, e.leg
  FROM entries e
 WHERE e.tenant_id = $1 AND e.account_id = $2 AND e.transaction_id = ANY($3::uuid[]) AND NOT e.pending
 ORDER BY e.transaction_id, e.leg`;

/** The rows of one manual match, from parallel arrays (a null where a row has no line or no entry). */
export const INSERT_MANUAL_MATCH = `
INSERT INTO matches (tenant_id, id, group_id, statement_line_id, transaction_id, leg, rule, evidence, created_by, note)
SELECT $1, gen_random_uuid(), $2, r.line_id, r.transaction_id, r.leg, 'manual', '{}', $3, $4
  FROM unnest($5::uuid[], $6::uuid[], $7::int2[]) AS r(line_id, transaction_id, leg)
ON CONFLICT DO NOTHING
RETURNING id`;

export const CONFIRM_MATCH = `
UPDATE matches SET confirmed_by = $3, confirmed_at = now(), note = coalesce($4, note)
 WHERE tenant_id = $1 AND group_id = $2 AND undone_at IS NULL AND confirmed_at IS NULL
RETURNING id`;

export const UNDO_MATCH = `
UPDATE matches SET undone_by = $3, undone_at = now(), note = coalesce($4, note)
 WHERE tenant_id = $1 AND group_id = $2 AND undone_at IS NULL
RETURNING id`;
