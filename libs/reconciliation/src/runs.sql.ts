/** Starts a run unless one of the tenant is running (the partial unique index says so). */
export const CLAIM_RUN = `
INSERT INTO reconciliation_runs (tenant_id, id, trigger, status, started_at, heartbeat_at) VALUES ($1, $2, $3, 'running', $4, now())
ON CONFLICT DO NOTHING
RETURNING id`;

/** A running run whose process stopped beating longer ago than the lease ($2 seconds) is given up. */
export const ABANDON_SILENT_RUN = `
UPDATE reconciliation_runs SET status = 'failed', finished_at = clock_timestamp(),
       error = 'abandoned: no sign of life since ' || heartbeat_at::text
 WHERE tenant_id = $1 AND status = 'running' AND heartbeat_at < now() - make_interval(secs => $2)`;

export const HEARTBEAT = `UPDATE reconciliation_runs SET heartbeat_at = now() WHERE tenant_id = $1 AND id = $2 AND status = 'running'`;

export const FINISH_RUN = `
UPDATE reconciliation_runs SET status = $3, finished_at = clock_timestamp(), stats = $4::text::jsonb, error = $5
 WHERE tenant_id = $1 AND id = $2 AND status = 'running'
RETURNING finished_at`;

/**
 * A run's statements are bulk work over whole tables: a set-based match of a million lines can take
 * longer than the pool's statement timeout, which is sized for requests. For each step's transaction only.
 */
export const RUN_STATEMENT_TIMEOUT = `SET LOCAL statement_timeout = '15min'`;

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
