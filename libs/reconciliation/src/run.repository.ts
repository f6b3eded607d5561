import { Inject, Injectable, Optional } from '@nestjs/common';
import { Database, type SqlExecutor } from '@ledger/db';
import { RECONCILIATION_SETTINGS, type ReconciliationSettings } from './reconciliation-settings.module';
import {
  ABANDON_SILENT_RUN,
  ALL_TENANTS,
  CLAIM_RUN,
  FIND_RUN,
  FINISH_RUN,
  HEARTBEAT,
  LIST_RUNS,
  REFRESH_STATISTICS,
} from './runs.sql';

/** A running run that has not beaten for this long is taken for dead (longer than any one step of a run); `RECONCILE_RUN_LEASE_SECONDS`. */
export const RUN_LEASE_SECONDS = 600;

export type RunTrigger = 'schedule' | 'api' | 'cli';

export interface RunView {
  id: string;
  trigger: RunTrigger;
  status: 'running' | 'completed' | 'failed';
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  stats: Record<string, unknown>;
  error: string | null;
}

interface RunRow {
  id: string;
  trigger: RunTrigger;
  status: RunView['status'];
  started_at: Date;
  finished_at: Date | null;
  stats: Record<string, unknown>;
  error: string | null;
}

function toView(row: RunRow): RunView {
  return {
    id: row.id,
    trigger: row.trigger,
    status: row.status,
    startedAt: row.started_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
    durationMs: row.finished_at ? row.finished_at.getTime() - row.started_at.getTime() : null,
    stats: row.stats,
    error: row.error,
  };
}

@Injectable()
export class RunRepository {
  private readonly leaseSeconds: number;

  constructor(
    private readonly db: Database,
    @Optional() @Inject(RECONCILIATION_SETTINGS) settings?: ReconciliationSettings,
  ) {
    this.leaseSeconds = settings?.runLeaseSeconds ?? RUN_LEASE_SECONDS;
  }

  /**
   * In autocommit when the run has no enclosing transaction, so that ANALYZE's lock does not last the
   * whole run; a run started through the API is inside the request's idempotency transaction and
   * joins it (on the embedded database's single connection a query beside it would wait forever).
   */
  async refreshStatistics(): Promise<void> {
    await this.db.executor.query(REFRESH_STATISTICS);
  }

  /** Records the run as running, unless another run of the tenant is (one that went silent is given up first). */
  async claim(tenantId: string, id: string, trigger: RunTrigger, startedAt: Date): Promise<boolean> {
    return this.db.transaction('read committed', async (tx) => {
      await tx.query(ABANDON_SILENT_RUN, [tenantId, this.leaseSeconds]);
      return (await tx.query(CLAIM_RUN, [tenantId, id, trigger, startedAt])).length === 1;
    });
  }

  /** The run is alive: called between its steps. */
  async heartbeat(tenantId: string, id: string): Promise<void> {
    await this.db.executor.query(HEARTBEAT, [tenantId, id]);
  }

  /** Undefined when the run is no longer running (it was given up for silent meanwhile). */
  async finish(
    sql: SqlExecutor,
    tenantId: string,
    id: string,
    outcome: { status: 'completed' | 'failed'; stats: Record<string, unknown>; error?: string },
  ): Promise<Date | undefined> {
    const rows = await sql.query<{ finished_at: Date }>(FINISH_RUN, [
      tenantId,
      id,
      outcome.status,
      JSON.stringify(outcome.stats),
      outcome.error ?? null,
    ]);
    return rows[0]?.finished_at;
  }

  async find(tenantId: string, id: string): Promise<RunView | undefined> {
    const row = (await this.db.executor.query<RunRow>(FIND_RUN, [tenantId, id]))[0];
    return row === undefined ? undefined : toView(row);
  }

  async list(tenantId: string, beforeId: string | undefined, take: number): Promise<RunView[]> {
    return (await this.db.executor.query<RunRow>(LIST_RUNS, [tenantId, beforeId ?? null, take])).map(toView);
  }

  async tenants(): Promise<string[]> {
    return (await this.db.executor.query<{ id: string }>(ALL_TENANTS)).map((row) => row.id);
  }
}
