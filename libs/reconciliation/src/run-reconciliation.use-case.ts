import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { newId } from '@ledger/ids';
import { DomainError } from '@ledger/errors';
import { RunExecution } from './run-execution';
import { RunRepository, type RunTrigger, type RunView } from './run.repository';

export interface RunCommand {
  tenantId: string;
  trigger: RunTrigger;
  /** Who starts it (recorded on the run): `cli:<os user>`, or `reconciler` for the schedule. */
  actor: string;
}

/** The answer to a start while the tenant has a run queued or running: a moment's answer, never stored. */
export function reconciliationInProgress(runId: string | undefined): DomainError {
  return new DomainError(
    'RECONCILIATION_IN_PROGRESS',
    'a reconciliation run of this tenant is queued or running; try again when it has finished',
    runId === undefined ? {} : { runId },
  );
}

/**
 * One reconciliation run of one tenant, carried out now in the caller's process (the command line and
 * the schedule; the API queues its runs for a worker instead). A second run of the same tenant while
 * one is queued or running is refused, not queued. Must not be called inside a transaction.
 */
@Injectable()
export class RunReconciliationUseCase {
  constructor(
    private readonly db: Database,
    private readonly runs: RunRepository,
    private readonly execution: RunExecution,
  ) {}

  async execute(command: RunCommand): Promise<RunView> {
    const timings = await this.execution.prepare();
    const claim = await this.db.transaction('read committed', async () => {
      // One that went silent is given up first.
      await this.runs.abandonSilent(command.tenantId);
      const run = await this.runs.claim({ ...command, id: newId() });
      return run === undefined ? { inTheWay: await this.runs.activeId(command.tenantId) } : { run };
    });
    if (claim.run === undefined) throw reconciliationInProgress(claim.inTheWay);
    return this.execution.perform(claim.run, timings);
  }
}
