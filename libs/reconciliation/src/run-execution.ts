import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { OutboxRepository } from '@ledger/outbox';
import { type CheckOutcome, InvariantChecks } from './checks/invariant-checks';
import type { DiscrepancyKind } from './domain/finding';
import { type MatchingOutcome, type MatchingProgress, MatchStatements } from './matching/match-statements';
import { MatchingRepository } from './matching/matching.repository';
import {
  type ClaimedRun,
  QUEUED_PROGRESS,
  type RunPhase,
  type RunProgress,
  RunRepository,
  type RunView,
} from './run.repository';
import { RunTimings } from './run-timings';
import { SyncTickets } from './tickets/sync-tickets';

/** The kinds a run looks for: their open tickets are resolved when a run no longer sees them. */
const CHECKED_KINDS: readonly DiscrepancyKind[] = [
  'invariant_violation',
  'stale_hold',
  'stuck_payment_order',
  'balance_continuity',
  'missing_in_ledger',
  'amount_mismatch',
  'currency_mismatch',
  'ambiguous_match',
  'duplicate',
  'missing_in_statement',
];

/**
 * Carries out a run that is already recorded as running (by whoever claimed it): every internal
 * invariant, statement lines matched to the ledger, then the tickets brought up to date. The run is a
 * series of short transactions (each check is one read, each matching rule one statement, the tickets
 * one last transaction), never one long one: a transaction open for a large run's whole minute would
 * hold back the event feed (which serves only what commits behind every running transaction) and
 * vacuum for all of that time. The journal's re-computation, a read of append-only rows, runs in a
 * transaction of its own beside the checks and matching. Between its steps the run beats (its lease)
 * and records its phase and counts, and a timer beats while a step lasts. It must not be called inside a transaction.
 */
@Injectable()
export class RunExecution {
  constructor(
    private readonly db: Database,
    private readonly runs: RunRepository,
    private readonly checks: InvariantChecks,
    private readonly matcher: MatchStatements,
    private readonly matching: MatchingRepository,
    private readonly tickets: SyncTickets,
    private readonly outbox: OutboxRepository,
  ) {}

  /**
   * The planner's statistics brought up to date, before the run is claimed (ANALYZE may take longer
   * than a run's lease on a busy machine, and a claimed run must beat within its lease). In autocommit,
   * so that ANALYZE's lock lasts only as long as ANALYZE. Answers the run's timings so far.
   */
  async prepare(): Promise<RunTimings> {
    const timings = new RunTimings();
    await timings.step('statistics', () => this.matching.refreshStatistics());
    return timings;
  }

  /** The finished run; a failure is recorded on the run (with the phase it happened in), then thrown. */
  async perform(run: ClaimedRun, timings: RunTimings): Promise<RunView> {
    let progress: RunProgress = { ...QUEUED_PROGRESS, phase: 'checks' };
    const beat = (phase: RunPhase, matching?: MatchingProgress) => {
      progress = { ...progress, ...matching, phase };
      return this.runs.heartbeat(run.tenantId, run.id, progress);
    };
    const alive = this.keepAlive(run);
    try {
      const { outcomes, result: matching } = await this.checks.runAlongside(run.tenantId, () =>
        timings.step('matching', () => this.matcher.run(run.tenantId, run.id, (done) => beat('matching', done))),
      );
      timings.record('checks', Object.fromEntries(outcomes.map((outcome) => [outcome.name, outcome.durationMs])));
      await beat('tickets');
      return await this.complete(run, outcomes, matching, timings, { ...progress, phase: 'finished' });
    } catch (error) {
      await this.runs.finish(run.tenantId, run.id, {
        status: 'failed',
        stats: {},
        error: error instanceof Error ? error.message.slice(0, 2000) : String(error),
      });
      throw error;
    } finally {
      alive.stop();
    }
  }

  /**
   * Beats on a timer too, beside the beats between steps: a step may last longer than the lease on a
   * busy machine, and the lease is there to give up the run of a process that died, not of a slow one.
   * A beat that fails is left to the run's next step to notice (the database being away fails it).
   */
  private keepAlive(run: ClaimedRun): { stop(): void } {
    let touching = false;
    const timer = setInterval(() => {
      if (touching) return;
      touching = true;
      this.runs
        .touch(run.tenantId, run.id)
        .catch(() => undefined)
        .finally(() => {
          touching = false;
        });
    }, this.runs.touchIntervalMs);
    timer.unref();
    return { stop: () => clearInterval(timer) };
  }

  /** The tickets, the run's record and its events, in one transaction. */
  private complete(
    run: ClaimedRun,
    outcomes: CheckOutcome[],
    matching: MatchingOutcome,
    timings: RunTimings,
    progress: RunProgress,
  ): Promise<RunView> {
    return this.db.transaction('read committed', async () => {
      const findings = [...outcomes.flatMap((outcome) => outcome.findings), ...matching.findings];
      const synced = await timings.step('tickets', () =>
        this.tickets.execute(run.tenantId, run.id, CHECKED_KINDS, findings, run.startedAt),
      );
      const stats = {
        checks: Object.fromEntries(outcomes.map((outcome) => [outcome.name, outcome.findings.length])),
        matched: matching.matched,
        ...synced.stats,
        durationsMs: timings.durationsMs,
      };
      const finishedAt = await this.runs.finish(run.tenantId, run.id, { status: 'completed', stats, progress });
      if (finishedAt === undefined) throw new Error(`run ${run.id} was given up as silent before it could finish`);
      const view = await this.runs.find(run.tenantId, run.id);
      await this.outbox.append(run.tenantId, [
        ...synced.events,
        {
          type: 'reconciliation.completed',
          aggregateType: 'reconciliation_run',
          aggregateId: run.id,
          aggregateVersion: 1n,
          data: { run: view },
        },
      ]);
      return view!;
    });
  }
}
