export const INSERT_AUDIT_ENTRY = `
INSERT INTO audit_log (tenant_id, id, actor, action, target_id, request) VALUES ($1, $2, $3, $4, $5, $6::jsonb)`;

/** Newest first, keyset by id (time-ordered). $2 action or null, $3 cursor id or null, $4 limit. */
export const LIST_AUDIT_ENTRIES = `
SELECT id, at, actor, action, target_id, request FROM audit_log
 WHERE tenant_id = $1 AND ($2::text IS NULL OR action = $2) AND ($3::uuid IS NULL OR id < $3)
 ORDER BY id DESC
 LIMIT $4`;
