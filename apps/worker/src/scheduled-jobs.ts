import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { PurgeExpiredKeysUseCase } from '@ledger/idempotency';
import { ExpireHoldsUseCase, TakeBalanceSnapshotsUseCase } from '@ledger/ledger';
import cron, { type ScheduledTask } from 'node-cron';

interface Job {
  name: string;
  schedule: string;
  run(): Promise<unknown>;
}

/** Background jobs on cron schedules; a run still going when the next is due is skipped. */
@Injectable()
export class ScheduledJobs implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('worker');
  private readonly tasks: ScheduledTask[] = [];

  constructor(
    private readonly purgeExpiredKeys: PurgeExpiredKeysUseCase,
    private readonly expireHolds: ExpireHoldsUseCase,
    private readonly takeSnapshots: TakeBalanceSnapshotsUseCase,
  ) {}

  /** Each is safe to run in several workers at once (row locks, ON CONFLICT DO NOTHING). */
  jobs(): Job[] {
    return [
      { name: 'expire-holds', schedule: '*/10 * * * * *', run: () => this.expireHolds.execute() },
      { name: 'balance-snapshots', schedule: '23 * * * *', run: () => this.takeSnapshots.execute() },
      { name: 'purge-expired-idempotency-keys', schedule: '17 * * * *', run: () => this.purgeExpiredKeys.execute() },
    ];
  }

  onApplicationBootstrap(): void {
    for (const job of this.jobs()) {
      const task = cron.schedule(job.schedule, () => this.runOnce(job), { name: job.name, noOverlap: true });
      this.tasks.push(task);
    }
    this.logger.log(`scheduled ${this.tasks.length} job(s)`);
  }

  async runOnce(job: Job): Promise<void> {
    try {
      const result = await job.run();
      this.logger.debug(`${job.name}: ${JSON.stringify(result)}`);
    } catch (error) {
      this.logger.error(`${job.name} failed: ${error instanceof Error ? error.stack : String(error)}`);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.tasks.map((task) => task.destroy()));
  }
}
