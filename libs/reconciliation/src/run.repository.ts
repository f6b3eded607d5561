import { Injectable } from '@nestjs/common';
import { Database, type SqlExecutor } from '@ledger/db';
import { ALL_TENANTS, FIND_RUN, FINISH_RUN, INSERT_RUN, LIST_RUNS, REFRESH_STATISTICS, RUN_STATEMENT_TIMEOUT, TRY_LOCK_TENANT_RUN } from './runs.sql';

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
  constructor(private readonly db: Database) {}

  /** Outside any transaction (its own connection): ANALYZE holds a lock that would otherwise last the whole run. */
  async refreshStatistics(): Promise<void> {
    await this.db.sql.query(REFRESH_STATISTICS);
  }

  async tryLockTenant(tx: SqlExecutor, tenantId: string): Promise<boolean> {
    return (await tx.query<{ locked: boolean }>(TRY_LOCK_TENANT_RUN, [tenantId]))[0]!.locked;
  }

  async start(tx: SqlExecutor, tenantId: string, id: string, trigger: RunTrigger, startedAt: Date): Promise<void> {
    await tx.query(RUN_STATEMENT_TIMEOUT);
    await tx.query(INSERT_RUN, [tenantId, id, trigger, startedAt]);
  }

  async finish(tx: SqlExecutor, tenantId: string, id: string, outcome: { status: 'completed' | 'failed'; stats: Record<string, unknown>; error?: string }): Promise<Date> {
    const rows = await tx.query<{ finished_at: Date }>(FINISH_RUN, [tenantId, id, outcome.status, JSON.stringify(outcome.stats), outcome.error ?? null]);
    return rows[0]!.finished_at;
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
