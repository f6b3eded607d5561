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

// Tickets are written many at a time (a run opens, updates and resolves them in one statement each),
// as parallel arrays, one element per ticket.

export const INSERT_TICKETS = `
INSERT INTO discrepancies (tenant_id, id, fingerprint, kind, severity, status, owner, summary, amount_minor, currency,
                           account_code, source, evidence, opened_at, updated_at, due_at, last_seen_run_id)
SELECT $1, t.id, t.fingerprint, t.kind, t.severity, 'open', t.owner, t.summary, t.amount_minor, t.currency,
       t.account_code, t.source, t.evidence::jsonb, t.opened_at, t.opened_at, t.due_at, t.last_seen_run_id
  FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int8[], $9::text[],
              $10::text[], $11::text[], $12::text[], $13::timestamptz[], $14::timestamptz[], $15::uuid[])
       AS t(id, fingerprint, kind, severity, owner, summary, amount_minor, currency, account_code, source, evidence,
            opened_at, due_at, last_seen_run_id)`;

export const UPDATE_TICKETS = `
UPDATE discrepancies d
   SET status = u.status, owner = u.owner, summary = u.summary, amount_minor = u.amount_minor, currency = u.currency,
       evidence = u.evidence::jsonb, updated_at = now(), resolved_at = u.resolved_at,
       last_seen_run_id = coalesce(u.last_seen_run_id, d.last_seen_run_id), due_at = u.due_at
  FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::int8[], $7::text[], $8::text[], $9::timestamptz[],
              $10::uuid[], $11::timestamptz[])
       AS u(id, status, owner, summary, amount_minor, currency, evidence, resolved_at, last_seen_run_id, due_at)
 WHERE d.tenant_id = $1 AND d.id = u.id`;

/** Each ticket's events are numbered on from its last one, in the order given. */
export const APPEND_EVENTS = `
INSERT INTO discrepancy_events (tenant_id, discrepancy_id, seq, actor, action, note, changes)
SELECT $1, e.discrepancy_id,
       coalesce((SELECT max(d.seq) FROM discrepancy_events d WHERE d.tenant_id = $1 AND d.discrepancy_id = e.discrepancy_id), 0)
         + row_number() OVER (PARTITION BY e.discrepancy_id ORDER BY e.position),
       e.actor, e.action, e.note, e.changes::jsonb
  FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY
       AS e(discrepancy_id, actor, action, note, changes, position)`;

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
