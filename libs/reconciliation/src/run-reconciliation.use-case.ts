import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { newId } from '@ledger/ids';
import { DomainError } from '@ledger/errors';
import { OutboxRepository } from '@ledger/outbox';
import { type CheckOutcome, InvariantChecks } from './checks/invariant-checks';
import { type MatchingOutcome, MatchStatements } from './matching/match-statements';
import { MatchingRepository } from './matching/matching.repository';
import type { DiscrepancyKind } from './domain/finding';
import { RunRepository, type RunTrigger, type RunView } from './run.repository';
import { RunTimings } from './run-timings';
import { SyncTickets } from './tickets/sync-tickets';

export interface RunCommand {
  tenantId: string;
  trigger: RunTrigger;
  /** Who starts it (recorded on the run): the caller's key, `cli:<os user>`, or `reconciler`. */
  actor: string;
}

/** The kinds a run looks for: their open tickets are resolved when a run no longer sees them. */
const CHECKED_KINDS: readonly DiscrepancyKind[] = [
  'invariant_violation',
  'stale_hold',
  'balance_continuity',
  'missing_in_ledger',
  'amount_mismatch',
  'currency_mismatch',
  'ambiguous_match',
  'duplicate',
  'missing_in_statement',
];

/**
 * One reconciliation run of one tenant: every internal invariant, statement lines matched to the
 * ledger, then the tickets brought up to date. A second run of the same tenant while one is going is
 * refused, not queued. The run is a series of short transactions (each check is one read, each
 * matching rule one statement, the tickets one last transaction), never one long one: a transaction
 * open for a large run's whole minute would hold back the event feed (which serves only what commits
 * behind every running transaction) and vacuum for all of that time. The journal's re-computation,
 * a read of append-only rows, runs in a transaction of its own beside the checks and matching.
 */
@Injectable()
export class RunReconciliationUseCase {
  constructor(
    private readonly db: Database,
    private readonly runs: RunRepository,
    private readonly checks: InvariantChecks,
    private readonly matcher: MatchStatements,
    private readonly matching: MatchingRepository,
    private readonly tickets: SyncTickets,
    private readonly outbox: OutboxRepository,
  ) {}

  async execute(command: RunCommand): Promise<RunView> {
    const runId = newId();
    const startedAt = new Date();
    const timings = new RunTimings();
    // In autocommit when the run has no enclosing transaction, so that ANALYZE's lock does not last the
    // whole run; a run started through the API is inside the request's idempotency transaction and
    // joins it (on the embedded database's single connection a query beside it would wait forever).
    await timings.step('statistics', () => this.matching.refreshStatistics());
    if (!(await this.claim(command, runId, startedAt))) {
      throw new DomainError(
        'RECONCILIATION_IN_PROGRESS',
        'a reconciliation run of this tenant is already going; try again when it has finished',
      );
    }
    try {
      const beat = () => this.runs.heartbeat(command.tenantId, runId);
      const { outcomes, result: matching } = await this.checks.runAlongside(command.tenantId, () =>
        timings.step('matching', () => this.matcher.run(command.tenantId, runId, beat)),
      );
      timings.record('checks', Object.fromEntries(outcomes.map((outcome) => [outcome.name, outcome.durationMs])));
      return await this.complete(command, runId, startedAt, outcomes, matching, timings);
    } catch (error) {
      await this.runs.finish(command.tenantId, runId, {
        status: 'failed',
        stats: {},
        error: error instanceof Error ? error.message.slice(0, 2000) : String(error),
      });
      throw error;
    }
  }

  /** Records the run as running, unless another run of the tenant is (one that went silent is given up first). */
  private claim(command: RunCommand, runId: string, startedAt: Date): Promise<boolean> {
    return this.db.transaction('read committed', async () => {
      await this.runs.abandonSilent(command.tenantId);
      return this.runs.claim({ ...command, id: runId, startedAt });
    });
  }

  /** The tickets, the run's record and its events, in one transaction. */
  private complete(
    command: RunCommand,
    runId: string,
    startedAt: Date,
    outcomes: CheckOutcome[],
    matching: MatchingOutcome,
    timings: RunTimings,
  ): Promise<RunView> {
    return this.db.transaction('read committed', async () => {
      const findings = [...outcomes.flatMap((outcome) => outcome.findings), ...matching.findings];
      const synced = await timings.step('tickets', () =>
        this.tickets.execute(command.tenantId, runId, CHECKED_KINDS, findings, startedAt),
      );
      const stats = {
        checks: Object.fromEntries(outcomes.map((outcome) => [outcome.name, outcome.findings.length])),
        matched: matching.matched,
        ...synced.stats,
        durationsMs: timings.durationsMs,
      };
      const finishedAt = await this.runs.finish(command.tenantId, runId, { status: 'completed', stats });
      if (finishedAt === undefined) throw new Error(`run ${runId} was given up as silent before it could finish`);
      const run: RunView = {
        id: runId,
        trigger: command.trigger,
        actor: command.actor,
        status: 'completed',
        startedAt: startedAt.toISOString(),
        finishedAt: finishedAt.toISOString(),
        durationMs: finishedAt.getTime() - startedAt.getTime(),
        stats,
        error: null,
      };
      await this.outbox.append(command.tenantId, [
        ...synced.events,
        {
          type: 'reconciliation.completed',
          aggregateType: 'reconciliation_run',
          aggregateId: runId,
          aggregateVersion: 1n,
          data: { run },
        },
      ]);
      return run;
    });
  }
}
