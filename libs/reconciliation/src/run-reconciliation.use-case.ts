import { Injectable } from '@nestjs/common';
import { Database, newId } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import { OutboxWriter } from '@ledger/outbox';
import { InvariantChecks } from './checks/invariant-checks';
import { MatchStatements } from './matching/match-statements';
import type { DiscrepancyKind } from './domain/finding';
import { RunRepository, type RunTrigger, type RunView } from './run.repository';
import { RunTimings } from './run-timings';
import { SyncTickets } from './tickets/sync-tickets';

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
 * ledger, then the tickets brought up to date, in one transaction (the journal's re-computation, a
 * read of append-only rows, in one of its own beside it). A second run of the same tenant while one
 * is going is refused, not queued.
 */
@Injectable()
export class RunReconciliationUseCase {
  constructor(
    private readonly db: Database,
    private readonly runs: RunRepository,
    private readonly checks: InvariantChecks,
    private readonly matcher: MatchStatements,
    private readonly tickets: SyncTickets,
    private readonly outbox: OutboxWriter,
  ) {}

  async execute(command: { tenantId: string; trigger: RunTrigger }): Promise<RunView> {
    const runId = newId();
    const startedAt = new Date();
    const timings = new RunTimings();
    await timings.step('statistics', () => this.runs.refreshStatistics());
    return this.db.transaction('read committed', async (tx) => {
      if (!(await this.runs.tryLockTenant(tx, command.tenantId))) {
        throw new DomainError('RECONCILIATION_IN_PROGRESS', 'a reconciliation run of this tenant is already going; try again when it has finished');
      }
      await this.runs.start(tx, command.tenantId, runId, command.trigger, startedAt);
      const { outcomes, result: matching } = await this.checks.runAlongside(command.tenantId, () => timings.step('matching', () => this.matcher.run(command.tenantId, runId)));
      timings.record('checks', Object.fromEntries(outcomes.map((outcome) => [outcome.name, outcome.durationMs])));
      const findings = [...outcomes.flatMap((outcome) => outcome.findings), ...matching.findings];
      const synced = await timings.step('tickets', () => this.tickets.execute(tx, command.tenantId, runId, CHECKED_KINDS, findings, startedAt));
      const stats = {
        checks: Object.fromEntries(outcomes.map((outcome) => [outcome.name, outcome.findings.length])),
        matched: matching.matched,
        ...synced.stats,
        durationsMs: timings.durationsMs,
      };
      const finishedAt = await this.runs.finish(tx, command.tenantId, runId, { status: 'completed', stats });
      const run: RunView = {
        id: runId,
        trigger: command.trigger,
        status: 'completed',
        startedAt: startedAt.toISOString(),
        finishedAt: finishedAt.toISOString(),
        durationMs: finishedAt.getTime() - startedAt.getTime(),
        stats,
        error: null,
      };
      await this.outbox.append(tx, command.tenantId, [
        ...synced.events,
        { type: 'reconciliation.completed', aggregateType: 'reconciliation_run', aggregateId: runId, aggregateVersion: 1n, data: { run } },
      ]);
      return run;
    });
  }
}
