import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { PollingLoop } from '@ledger/outbox';
import { ExecuteQueuedRunUseCase } from '@ledger/reconciliation';

/** How often an idle worker looks for a queued run (and gives up runs that went silent). */
const IDLE_DELAY_MS = 1_000;
const ERROR_DELAY_BASE_MS = 500;
const ERROR_DELAY_CAP_MS = 30_000;

/**
 * The reconciliation runs started through the API: a loop that claims the oldest queued run of any
 * tenant, carries it out, and takes the next at once. A run that fails is recorded on the run and
 * logged here; the loop goes on with the next tenant's run (only the database being away backs it off).
 * On shutdown the run in progress finishes first.
 */
@Injectable()
export class QueuedRunJobs implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('reconcile');
  private readonly loop: PollingLoop;

  constructor(executeQueuedRun: ExecuteQueuedRunUseCase) {
    this.loop = new PollingLoop(
      {
        name: 'reconciliation-queue',
        idleDelayMs: IDLE_DELAY_MS,
        errorDelayBaseMs: ERROR_DELAY_BASE_MS,
        errorDelayCapMs: ERROR_DELAY_CAP_MS,
      },
      async () => {
        const outcome = await executeQueuedRun.execute();
        if (outcome.kind === 'failed') {
          const reason = outcome.error instanceof Error ? outcome.error.stack : String(outcome.error);
          this.logger.error(`queued run ${outcome.runId} of tenant ${outcome.tenantId} failed: ${reason}`);
        }
        return outcome.kind === 'idle' ? 0 : 1;
      },
    );
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }
}
