// A reconciliation run's lifecycle: queued (a start through the API), running, then completed or failed.

import { type NoParams, sql } from '@ledger/db';

/** Starts a run now unless one of the tenant is queued or running (the partial unique index says so). */
export const CLAIM_RUN = sql<
  { tenantId: string; id: string; trigger: string; actor: string; progress: string },
  { started_at: Date }
>(`
INSERT INTO reconciliation_runs (tenant_id, id, trigger, actor, status, queued_at, started_at, heartbeat_at, progress)
VALUES (:tenantId, :id, :trigger, :actor, 'running', now(), clock_timestamp(), now(), :progress::text::jsonb)
ON CONFLICT DO NOTHING
RETURNING started_at`);

/** Queues a run for a worker unless one of the tenant is queued or running. */
export const ENQUEUE_RUN = sql<
  { tenantId: string; id: string; trigger: string; actor: string; progress: string },
  { id: string }
>(`
INSERT INTO reconciliation_runs (tenant_id, id, trigger, actor, status, queued_at, started_at, heartbeat_at, progress)
VALUES (:tenantId, :id, :trigger, :actor, 'queued', now(), NULL, now(), :progress::text::jsonb)
ON CONFLICT DO NOTHING
RETURNING id`);

/** The tenant's queued or running run (there is at most one). */
export const ACTIVE_RUN = sql<{ tenantId: string }, { id: string }>(`
SELECT id FROM reconciliation_runs WHERE tenant_id = :tenantId AND status IN ('queued', 'running')`);

export const ANY_QUEUED_RUN = sql<NoParams, { found: number }>(`
SELECT 1 AS found FROM reconciliation_runs WHERE status = 'queued' LIMIT 1`);

/**
 * The oldest queued run of any tenant becomes running; one another worker is claiming is skipped,
 * not waited for. Each tenant has at most one queued run, so the tenants take turns.
 */
export const CLAIM_QUEUED_RUN = sql<
  { progress: string },
  { tenant_id: string; id: string; trigger: string; actor: string; started_at: Date }
>(`
UPDATE reconciliation_runs AS run
   SET status = 'running', started_at = clock_timestamp(), heartbeat_at = now(), progress = :progress::text::jsonb
  FROM (SELECT tenant_id, id FROM reconciliation_runs WHERE status = 'queued'
         ORDER BY queued_at, tenant_id, id LIMIT 1 FOR UPDATE SKIP LOCKED) AS next
 WHERE run.tenant_id = next.tenant_id AND run.id = next.id
RETURNING run.tenant_id::text, run.id::text, run.trigger, run.actor, run.started_at`);

/** A running run whose process stopped beating longer ago than the lease is given up. */
export const ABANDON_SILENT_RUN = sql<{ tenantId: string; leaseSeconds: number }>(`
UPDATE reconciliation_runs SET status = 'failed', finished_at = clock_timestamp(),
       error = 'abandoned: no sign of life since ' || heartbeat_at::text
 WHERE tenant_id = :tenantId AND status = 'running' AND heartbeat_at < now() - make_interval(secs => :leaseSeconds)`);

/** The same for every tenant: what a worker does before it claims a queued run. */
export const ABANDON_SILENT_RUNS = sql<{ leaseSeconds: number }>(`
UPDATE reconciliation_runs SET status = 'failed', finished_at = clock_timestamp(),
       error = 'abandoned: no sign of life since ' || heartbeat_at::text
 WHERE status = 'running' AND heartbeat_at < now() - make_interval(secs => :leaseSeconds)`);

/** The run's process is alive (between its steps as during a long one). */
export const TOUCH = sql<{ tenantId: string; id: string }>(`
UPDATE reconciliation_runs SET heartbeat_at = now() WHERE tenant_id = :tenantId AND id = :id AND status = 'running'`);

/** The run is alive, and this is where it is. */
export const HEARTBEAT = sql<{ tenantId: string; id: string; progress: string }>(`
UPDATE reconciliation_runs SET heartbeat_at = now(), progress = :progress::text::jsonb
 WHERE tenant_id = :tenantId AND id = :id AND status = 'running'`);

/** A null progress keeps the last one written (a failed run shows the phase it failed in). */
export const FINISH_RUN = sql<
  { tenantId: string; id: string; status: string; stats: string; progress: string | null; error: string | null },
  { finished_at: Date }
>(`
UPDATE reconciliation_runs
   SET status = :status, finished_at = clock_timestamp(), stats = :stats::text::jsonb, error = :error,
       progress = COALESCE(:progress::text::jsonb, progress)
 WHERE tenant_id = :tenantId AND id = :id AND status = 'running'
RETURNING finished_at`);
