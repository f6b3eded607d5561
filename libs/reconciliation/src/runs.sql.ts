export const INSERT_RUN = `INSERT INTO reconciliation_runs (tenant_id, id, trigger, status, started_at) VALUES ($1, $2, $3, 'running', $4)`;

export const FINISH_RUN = `
UPDATE reconciliation_runs SET status = $3, finished_at = clock_timestamp(), stats = $4::text::jsonb, error = $5
 WHERE tenant_id = $1 AND id = $2
RETURNING finished_at`;

/**
 * A run's statements are bulk work over whole tables: a set-based match of a million lines can take
 * longer than the pool's statement timeout, which is sized for requests. For the run's transaction only.
 */
export const RUN_STATEMENT_TIMEOUT = `SET LOCAL statement_timeout = '15min'`;

/** One run at a time per tenant, across any number of worker and API processes. */
export const TRY_LOCK_TENANT_RUN = `SELECT pg_try_advisory_xact_lock(hashtextextended($1::text || ':reconcile', 0)) AS locked`;

const RUN_COLUMNS = `id, trigger, status, started_at, finished_at, stats, error`;
export const FIND_RUN = `SELECT ${RUN_COLUMNS} FROM reconciliation_runs WHERE tenant_id = $1 AND id = $2`;
export const LIST_RUNS = `SELECT ${RUN_COLUMNS} FROM reconciliation_runs WHERE tenant_id = $1 AND ($2::uuid IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`;
export const ALL_TENANTS = `SELECT id FROM tenants ORDER BY id`;

/**
 * Fresh planner statistics for the tables a run joins: after a large import the row counts can be far
 * from what the planner last saw (autovacuum may be slow or off), and a plan made for a handful of rows
 * turns a set-based match of a million lines into a nested loop over all pairs. Sampled, so bounded.
 */
export const REFRESH_STATISTICS = `ANALYZE statement_lines, entries, transactions, matches`;
