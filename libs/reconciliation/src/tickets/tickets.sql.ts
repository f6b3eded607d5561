// Discrepancy tickets and their history.

const TICKET_COLUMNS = `
id, fingerprint, kind, severity, status, owner, summary, amount_minor, currency, account_code, source, evidence,
opened_at, updated_at, due_at, resolved_at, last_seen_run_id`;

export const FIND_BY_FINGERPRINTS = `SELECT ${TICKET_COLUMNS} FROM discrepancies WHERE tenant_id = $1 AND fingerprint = ANY($2::text[])`;

/** Tickets a run is responsible for (its kinds) that are still being worked. */
export const OPEN_OF_KINDS = `
SELECT ${TICKET_COLUMNS} FROM discrepancies
 WHERE tenant_id = $1 AND kind = ANY($2::text[]) AND status IN ('open', 'acknowledged')
 LIMIT $3`;

export const INSERT_TICKET = `
INSERT INTO discrepancies (tenant_id, id, fingerprint, kind, severity, status, owner, summary, amount_minor, currency,
                           account_code, source, evidence, opened_at, updated_at, due_at, last_seen_run_id)
VALUES ($1, $2, $3, $4, $5, 'open', $6, $7, $8, $9, $10, $11, $12::text::jsonb, $13, $13, $14, $15)`;

export const UPDATE_TICKET = `
UPDATE discrepancies
   SET status = $3, owner = $4, summary = $5, amount_minor = $6, currency = $7, evidence = $8::text::jsonb,
       updated_at = now(), resolved_at = $9, last_seen_run_id = coalesce($10, last_seen_run_id), due_at = $11
 WHERE tenant_id = $1 AND id = $2`;

export const APPEND_EVENT = `
INSERT INTO discrepancy_events (tenant_id, discrepancy_id, seq, actor, action, note, changes)
SELECT $1, $2, coalesce(max(seq), 0) + 1, $3, $4, $5, $6::text::jsonb
  FROM discrepancy_events WHERE tenant_id = $1 AND discrepancy_id = $2`;

export const FIND_TICKET = `SELECT ${TICKET_COLUMNS} FROM discrepancies WHERE tenant_id = $1 AND id = $2`;

export const LOCK_TICKET = `SELECT ${TICKET_COLUMNS} FROM discrepancies WHERE tenant_id = $1 AND id = $2 FOR UPDATE`;

export const HISTORY = `
SELECT seq, at, actor, action, note, changes FROM discrepancy_events
 WHERE tenant_id = $1 AND discrepancy_id = $2 ORDER BY seq LIMIT 1000`;

/** The queue: filters all optional; overdue = past due and still being worked; age = opened before. Newest first, by id. */
export const LIST_TICKETS = `
SELECT ${TICKET_COLUMNS} FROM discrepancies
 WHERE tenant_id = $1
   AND ($2::text IS NULL OR status = $2)
   AND ($3::text IS NULL OR owner = $3)
   AND ($4::text IS NULL OR kind = $4)
   AND ($5::boolean IS NULL OR $5 = (due_at < now() AND status IN ('open', 'acknowledged')))
   AND ($6::int8 IS NULL OR abs(amount_minor) >= $6)
   AND ($7::timestamptz IS NULL OR opened_at < $7)
   AND ($8::uuid IS NULL OR id < $8)
 ORDER BY id DESC
 LIMIT $9`;

/** Tickets per status and how many of them are overdue: one pass over the (tenant_id, status, due_at) index. */
export const COUNT_TICKETS = `
SELECT status,
       count(*)::int AS tickets,
       count(*) FILTER (WHERE due_at < now() AND status IN ('open', 'acknowledged'))::int AS overdue
  FROM discrepancies
 WHERE tenant_id = $1
 GROUP BY status`;

export const LIST_ROUTES = `
SELECT priority, kind, source, account_prefix, min_amount_minor, owner FROM owner_routes WHERE tenant_id = $1 ORDER BY priority LIMIT 1000`;

export const INSERT_ROUTE = `
INSERT INTO owner_routes (tenant_id, id, priority, kind, source, account_prefix, min_amount_minor, owner)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`;
