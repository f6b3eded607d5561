// A person's side of matching: explain, match by hand, confirm, undo.

const MATCH_VIEW = `
SELECT m.id, m.statement_line_id, m.transaction_id, m.leg, m.rule, m.evidence, m.run_id, m.created_by, m.created_at,
       m.confirmed_by, m.confirmed_at, m.undone_by, m.undone_at, m.note,
       l.amount_minor::text AS line_amount, l.currency::text AS line_currency, l.booked_on::text AS booked_on,
       e.amount_minor::text AS entry_amount, e.direction AS entry_direction, e.currency::text AS entry_currency
  FROM matches m
  JOIN statement_lines l ON l.tenant_id = m.tenant_id AND l.id = m.statement_line_id
  JOIN entries e ON e.tenant_id = m.tenant_id AND e.transaction_id = m.transaction_id AND e.leg = m.leg`;

/** Every match of a line or of a transaction, undone ones included: the full story. */
export const LIST_MATCHES = `${MATCH_VIEW}
 WHERE m.tenant_id = $1 AND ($2::uuid IS NULL OR m.statement_line_id = $2) AND ($3::uuid IS NULL OR m.transaction_id = $3)
 ORDER BY m.created_at LIMIT 200`;

export const FIND_MATCH = `${MATCH_VIEW} WHERE m.tenant_id = $1 AND m.id = $2`;

/** The line's source account and the entry's account must be the same for a manual match. */
export const MANUAL_PAIR = `
SELECT l.id AS line_id, e.transaction_id, e.leg
  FROM statement_lines l
  JOIN statement_sources s ON s.tenant_id = l.tenant_id AND s.id = l.source_id
  JOIN entries e ON e.tenant_id = l.tenant_id AND e.account_id = s.account_id AND NOT e.pending
 WHERE l.tenant_id = $1 AND l.id = $2 AND e.transaction_id = $3 AND ($4::int IS NULL OR e.leg = $4)`;

export const INSERT_MANUAL_MATCH = `
INSERT INTO matches (tenant_id, id, statement_line_id, transaction_id, leg, rule, evidence, created_by, note)
VALUES ($1, $2, $3, $4, $5, 'manual', '{}', $6, $7)
ON CONFLICT DO NOTHING
RETURNING id`;

export const CONFIRM_MATCH = `
UPDATE matches SET confirmed_by = $3, confirmed_at = now(), note = coalesce($4, note)
 WHERE tenant_id = $1 AND id = $2 AND undone_at IS NULL AND confirmed_at IS NULL
RETURNING id`;

export const UNDO_MATCH = `
UPDATE matches SET undone_by = $3, undone_at = now(), note = coalesce($4, note)
 WHERE tenant_id = $1 AND id = $2 AND undone_at IS NULL
RETURNING id`;
