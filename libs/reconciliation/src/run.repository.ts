import { Inject, Injectable, Optional } from '@nestjs/common';
import { Database, type Prisma } from '@ledger/db';
import { RECONCILIATION_SETTINGS, type ReconciliationSettings } from './reconciliation-settings.module';
import { ABANDON_SILENT_RUN, CLAIM_RUN, FINISH_RUN, HEARTBEAT } from './runs.sql';

/**
 * A running run that has not beaten for this long is taken for dead (longer than any one step of a
 * run); `RECONCILE_RUN_LEASE_SECONDS`.
 */
export const RUN_LEASE_SECONDS = 600;

export type RunTrigger = 'schedule' | 'api' | 'cli';

/** The actor of scheduled runs, and of the ticket changes every run makes. */
export const RECONCILER_ACTOR = 'reconciler';

export interface RunView {
  id: string;
  trigger: RunTrigger;
  /** Who started it: `api-key:<key id>`, `cli:<os user>`, or `reconciler` for the schedule. */
  actor: string;
  status: 'running' | 'completed' | 'failed';
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  stats: Record<string, unknown>;
  error: string | null;
}

const RUN = {
  id: true,
  trigger: true,
  actor: true,
  status: true,
  startedAt: true,
  finishedAt: true,
  stats: true,
  error: true,
} as const;

function toView(row: Prisma.ReconciliationRunGetPayload<{ select: typeof RUN }>): RunView {
  return {
    id: row.id,
    trigger: row.trigger as RunTrigger,
    actor: row.actor,
    status: row.status as RunView['status'],
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    durationMs: row.finishedAt ? row.finishedAt.getTime() - row.startedAt.getTime() : null,
    stats: row.stats as Record<string, unknown>,
    error: row.error,
  };
}

/** Reconciliation runs: the lifecycle in SQL (the database's clock, the one-running index), reads with Prisma. */
@Injectable()
export class RunRepository {
  private readonly leaseSeconds: number;

  constructor(
    private readonly db: Database,
    @Optional() @Inject(RECONCILIATION_SETTINGS) settings?: ReconciliationSettings,
  ) {
    this.leaseSeconds = settings?.runLeaseSeconds ?? RUN_LEASE_SECONDS;
  }

  /** Gives up the tenant's running run if it went silent for longer than the lease. */
  async abandonSilent(tenantId: string): Promise<void> {
    await this.db.query(ABANDON_SILENT_RUN, { tenantId, leaseSeconds: this.leaseSeconds });
  }

  /** Records the run as running, unless another run of the tenant is. */
  async claim(run: {
    tenantId: string;
    id: string;
    trigger: RunTrigger;
    actor: string;
    startedAt: Date;
  }): Promise<boolean> {
    return (await this.db.query(CLAIM_RUN, run)).length === 1;
  }

  /** The run is alive: called between its steps. */
  async heartbeat(tenantId: string, id: string): Promise<void> {
    await this.db.query(HEARTBEAT, { tenantId, id });
  }

  /** Undefined when the run is no longer running (it was given up for silent meanwhile). */
  async finish(
    tenantId: string,
    id: string,
    outcome: { status: 'completed' | 'failed'; stats: Record<string, unknown>; error?: string },
  ): Promise<Date | undefined> {
    const rows = await this.db.query(FINISH_RUN, {
      tenantId,
      id,
      status: outcome.status,
      stats: JSON.stringify(outcome.stats),
      error: outcome.error ?? null,
    });
    return rows[0]?.finished_at;
  }

  async find(tenantId: string, id: string): Promise<RunView | undefined> {
    const row = await this.db.prisma.reconciliationRun.findUnique({
      where: { tenantId_id: { tenantId, id } },
      select: RUN,
    });
    return row === null ? undefined : toView(row);
  }

  /** Newest first (ids are time-ordered), from just below `beforeId`. */
  async list(tenantId: string, beforeId: string | undefined, take: number): Promise<RunView[]> {
    const rows = await this.db.prisma.reconciliationRun.findMany({
      where: { tenantId, ...(beforeId === undefined ? {} : { id: { lt: beforeId } }) },
      select: RUN,
      orderBy: { id: 'desc' },
      take,
    });
    return rows.map(toView);
  }

  /** Runs per status across tenants, for the metrics. */
  async countByStatus(): Promise<Record<string, number>> {
    const groups = await this.db.prisma.reconciliationRun.groupBy({ by: ['status'], _count: { _all: true } });
    return Object.fromEntries(groups.map((group) => [group.status, group._count._all]));
  }
}
