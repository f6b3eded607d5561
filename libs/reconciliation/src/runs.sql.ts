// A reconciliation run's lifecycle.

import { sql } from '@ledger/db';

/** Starts a run unless one of the tenant is running (the partial unique index says so). */
export const CLAIM_RUN = sql<
  { tenantId: string; id: string; trigger: string; actor: string; startedAt: Date },
  { id: string }
>(`
INSERT INTO reconciliation_runs (tenant_id, id, trigger, actor, status, started_at, heartbeat_at)
VALUES (:tenantId, :id, :trigger, :actor, 'running', :startedAt, now())
ON CONFLICT DO NOTHING
RETURNING id`);

/** A running run whose process stopped beating longer ago than the lease is given up. */
export const ABANDON_SILENT_RUN = sql<{ tenantId: string; leaseSeconds: number }>(`
UPDATE reconciliation_runs SET status = 'failed', finished_at = clock_timestamp(),
       error = 'abandoned: no sign of life since ' || heartbeat_at::text
 WHERE tenant_id = :tenantId AND status = 'running' AND heartbeat_at < now() - make_interval(secs => :leaseSeconds)`);

export const HEARTBEAT = sql<{ tenantId: string; id: string }>(`
UPDATE reconciliation_runs SET heartbeat_at = now() WHERE tenant_id = :tenantId AND id = :id AND status = 'running'`);

export const FINISH_RUN = sql<
  { tenantId: string; id: string; status: string; stats: string; error: string | null },
  { finished_at: Date }
>(`
UPDATE reconciliation_runs
   SET status = :status, finished_at = clock_timestamp(), stats = :stats::text::jsonb, error = :error
 WHERE tenant_id = :tenantId AND id = :id AND status = 'running'
RETURNING finished_at`);
