import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { RunExecution } from './run-execution';
import { RunRepository, type RunView } from './run.repository';

export type QueuedRunOutcome =
  | { kind: 'idle' }
  | { kind: 'completed'; run: RunView }
  /** Recorded on the run (status `failed`, its error and the phase it failed in). */
  | { kind: 'failed'; tenantId: string; runId: string; error: unknown };

/**
 * What a worker does: gives up the runs that went silent (their process died), claims the oldest
 * queued run of any tenant and carries it out. A run that fails is recorded as failed and answered
 * as an outcome, not thrown, so that the next tenant's queued run is taken at once.
 */
@Injectable()
export class ExecuteQueuedRunUseCase {
  constructor(
    private readonly db: Database,
    private readonly runs: RunRepository,
    private readonly execution: RunExecution,
  ) {}

  async execute(): Promise<QueuedRunOutcome> {
    await this.runs.abandonAllSilent();
    if (!(await this.runs.anyQueued())) return { kind: 'idle' };
    // Before the claim, as every run does (another worker may claim the run meanwhile: then it was for nothing).
    const timings = await this.execution.prepare();
    const run = await this.db.transaction('read committed', () => this.runs.claimQueued());
    if (run === undefined) return { kind: 'idle' };
    try {
      return { kind: 'completed', run: await this.execution.perform(run, timings) };
    } catch (error) {
      return { kind: 'failed', tenantId: run.tenantId, runId: run.id, error };
    }
  }
}
