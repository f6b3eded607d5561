import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { newId } from '@ledger/ids';
import { RunRepository, type RunView } from './run.repository';
import { reconciliationInProgress } from './run-reconciliation.use-case';

/** Tries at queueing: the run in the way may finish between the refused insert and the look for it. */
const ENQUEUE_ATTEMPTS_MAX = 3;

/**
 * Queues a run for a worker and answers it at once (status `queued`): one short write, made in the
 * caller's transaction (the request's, with its Idempotency-Key). A start while the tenant has a run
 * queued or running is refused with that run's id.
 */
@Injectable()
export class StartReconciliationUseCase {
  constructor(
    private readonly db: Database,
    private readonly runs: RunRepository,
  ) {}

  execute(command: { tenantId: string; actor: string }): Promise<RunView> {
    return this.db.transaction('read committed', async () => {
      // A running run that went silent is given up, so that it does not hold the tenant for ever.
      await this.runs.abandonSilent(command.tenantId);
      const id = newId();
      let inTheWay: string | undefined;
      for (let attempt = 0; attempt < ENQUEUE_ATTEMPTS_MAX; attempt++) {
        if (await this.runs.enqueue({ tenantId: command.tenantId, id, trigger: 'api', actor: command.actor })) {
          return (await this.runs.find(command.tenantId, id))!;
        }
        inTheWay = await this.runs.activeId(command.tenantId);
        if (inTheWay !== undefined) break;
      }
      throw reconciliationInProgress(inTheWay);
    });
  }
}
