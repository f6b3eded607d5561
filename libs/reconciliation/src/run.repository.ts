import { Inject, Injectable, Optional } from '@nestjs/common';
import { Database, type Prisma } from '@ledger/db';
import { RECONCILIATION_SETTINGS, type ReconciliationSettings } from './reconciliation-settings.module';
import {
  ABANDON_SILENT_RUN,
  ABANDON_SILENT_RUNS,
  ACTIVE_RUN,
  ANY_QUEUED_RUN,
  CLAIM_QUEUED_RUN,
  CLAIM_RUN,
  ENQUEUE_RUN,
  FINISH_RUN,
  HEARTBEAT,
  TOUCH,
} from './runs.sql';

/**
 * A running run that has not beaten for this long is taken for dead (longer than any one step of a
 * run); `RECONCILE_RUN_LEASE_SECONDS`.
 */
export const RUN_LEASE_SECONDS = 600;

export type RunTrigger = 'schedule' | 'api' | 'cli';

/** The actor of scheduled runs, and of the ticket changes every run makes. */
export const RECONCILER_ACTOR = 'reconciler';

export type RunStatus = 'queued' | 'running' | 'completed' | 'failed';

/** Where a run is: queued, then each step in turn, then finished (a failed run keeps the phase it failed in). */
export type RunPhase = 'queued' | 'checks' | 'matching' | 'tickets' | 'finished';

export interface RunProgress {
  phase: RunPhase;
  /** Statement sources whose lines have been matched, of `sourcesTotal` (null until matching starts). */
  sourcesDone: number;
  sourcesTotal: number | null;
  /** Statement lines matched so far. */
  linesMatched: number;
}

export const QUEUED_PROGRESS: RunProgress = { phase: 'queued', sourcesDone: 0, sourcesTotal: null, linesMatched: 0 };

export interface RunView {
  id: string;
  trigger: RunTrigger;
  /** Who started it: `api-key:<key id>`, `cli:<os user>`, or `reconciler` for the schedule. */
  actor: string;
  status: RunStatus;
  queuedAt: string;
  /** Null while queued. */
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  progress: RunProgress;
  stats: Record<string, unknown>;
  error: string | null;
}

/** A run a process has just made running: what it needs to carry it out. */
export interface ClaimedRun {
  tenantId: string;
  id: string;
  trigger: RunTrigger;
  actor: string;
  startedAt: Date;
}

const RUN = {
  id: true,
  trigger: true,
  actor: true,
  status: true,
  queuedAt: true,
  startedAt: true,
  finishedAt: true,
  progress: true,
  stats: true,
  error: true,
} as const;

/** Runs recorded before progress was: the phase their status implies. */
function progressOf(status: RunStatus, stored: unknown): RunProgress {
  const recorded = (typeof stored === 'object' && stored !== null ? stored : {}) as Partial<RunProgress>;
  const phase: RunPhase = status === 'queued' ? 'queued' : status === 'running' ? 'checks' : 'finished';
  return { ...QUEUED_PROGRESS, phase, ...recorded };
}

function toView(row: Prisma.ReconciliationRunGetPayload<{ select: typeof RUN }>): RunView {
  const status = row.status as RunStatus;
  return {
    id: row.id,
    trigger: row.trigger as RunTrigger,
    actor: row.actor,
    status,
    queuedAt: row.queuedAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    durationMs: row.finishedAt && row.startedAt ? row.finishedAt.getTime() - row.startedAt.getTime() : null,
    progress: progressOf(status, row.progress),
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

  /** Gives up every tenant's running run that went silent for longer than the lease. */
  async abandonAllSilent(): Promise<void> {
    await this.db.query(ABANDON_SILENT_RUNS, { leaseSeconds: this.leaseSeconds });
  }

  /** Records the run as running now, unless another run of the tenant is queued or running. */
  async claim(run: Omit<ClaimedRun, 'startedAt'>): Promise<ClaimedRun | undefined> {
    const progress = JSON.stringify({ ...QUEUED_PROGRESS, phase: 'checks' });
    const [row] = await this.db.query(CLAIM_RUN, { ...run, progress });
    return row === undefined ? undefined : { ...run, startedAt: row.started_at };
  }

  /** Records the run as queued for a worker, unless another run of the tenant is queued or running. */
  async enqueue(run: Omit<ClaimedRun, 'startedAt'>): Promise<boolean> {
    return (await this.db.query(ENQUEUE_RUN, { ...run, progress: JSON.stringify(QUEUED_PROGRESS) })).length === 1;
  }

  /** The id of the tenant's queued or running run, if it has one. */
  async activeId(tenantId: string): Promise<string | undefined> {
    return (await this.db.query(ACTIVE_RUN, { tenantId }))[0]?.id;
  }

  /** Whether any tenant has a run queued. */
  async anyQueued(): Promise<boolean> {
    return (await this.db.query(ANY_QUEUED_RUN)).length > 0;
  }

  /** Makes the oldest queued run of any tenant running, and answers it; undefined when none is queued. */
  async claimQueued(): Promise<ClaimedRun | undefined> {
    const progress = JSON.stringify({ ...QUEUED_PROGRESS, phase: 'checks' });
    const [row] = await this.db.query(CLAIM_QUEUED_RUN, { progress });
    if (row === undefined) return undefined;
    return {
      tenantId: row.tenant_id,
      id: row.id,
      trigger: row.trigger as RunTrigger,
      actor: row.actor,
      startedAt: row.started_at,
    };
  }

  /** How often a running run's process says it is alive: well within the lease. */
  get touchIntervalMs(): number {
    return (this.leaseSeconds * 1000) / 3;
  }

  /** The run's process is alive. */
  async touch(tenantId: string, id: string): Promise<void> {
    await this.db.query(TOUCH, { tenantId, id });
  }

  /** The run is alive (called between its steps), and this is where it is. */
  async heartbeat(tenantId: string, id: string, progress: RunProgress): Promise<void> {
    await this.db.query(HEARTBEAT, { tenantId, id, progress: JSON.stringify(progress) });
  }

  /** Undefined when the run is no longer running (it was given up for silent meanwhile). */
  async finish(
    tenantId: string,
    id: string,
    outcome: {
      status: 'completed' | 'failed';
      stats: Record<string, unknown>;
      progress?: RunProgress;
      error?: string;
    },
  ): Promise<Date | undefined> {
    const rows = await this.db.query(FINISH_RUN, {
      tenantId,
      id,
      status: outcome.status,
      stats: JSON.stringify(outcome.stats),
      progress: outcome.progress === undefined ? null : JSON.stringify(outcome.progress),
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
