import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { TenantReader } from '@ledger/auth';
import { PurgeExpiredKeysUseCase } from '@ledger/idempotency';
import { ExpireHoldsUseCase, TakeBalanceSnapshotsUseCase } from '@ledger/ledger';
import { DomainError } from '@ledger/errors';
import { PurgePublishedEventsUseCase } from '@ledger/outbox';
import { RECONCILER_ACTOR, RunReconciliationUseCase } from '@ledger/reconciliation';
import { Inject } from '@nestjs/common';

export const RECONCILE_CRON = Symbol('RECONCILE_CRON');
import cron, { type ScheduledTask } from 'node-cron';

interface Job {
  name: string;
  schedule: string;
  run(): Promise<unknown>;
}

/**
 * Background jobs on cron schedules; a run still going when the next is due is skipped. Shutdown stops
 * the schedules and then waits for the runs in progress, so that none of them loses its database
 * half-way (a reconciliation run left behind would hold its tenant until its lease ran out).
 */
@Injectable()
export class ScheduledJobs implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('worker');
  private readonly tasks: ScheduledTask[] = [];
  private readonly inProgress = new Set<Promise<void>>();

  constructor(
    private readonly purgeExpiredKeys: PurgeExpiredKeysUseCase,
    private readonly expireHolds: ExpireHoldsUseCase,
    private readonly takeSnapshots: TakeBalanceSnapshotsUseCase,
    private readonly reconcile: RunReconciliationUseCase,
    private readonly tenants: TenantReader,
    private readonly purgePublishedEvents: PurgePublishedEventsUseCase,
    @Inject(RECONCILE_CRON) private readonly reconcileCron: string,
  ) {}

  /**
   * Every tenant in turn, each on its own: a tenant whose run is queued or still going is skipped this
   * time, and one whose run fails is logged with its id (its run row, if it got one, says `failed` with
   * the error) while the tenants after it are still reconciled on the same tick.
   */
  private async reconcileAllTenants(): Promise<{ completed: number; skipped: number; failed: number }> {
    let completed = 0;
    let skipped = 0;
    let failed = 0;
    for (const tenantId of await this.tenants.ids()) {
      try {
        await this.reconcile.execute({ tenantId, trigger: 'schedule', actor: RECONCILER_ACTOR });
        completed++;
      } catch (error) {
        if (error instanceof DomainError && error.code === 'RECONCILIATION_IN_PROGRESS') {
          skipped++;
          continue;
        }
        failed++;
        this.logger.error(
          `reconcile: tenant ${tenantId} failed: ${error instanceof Error ? error.stack : String(error)}`,
        );
      }
    }
    if (failed > 0) this.logger.warn(`reconcile: ${failed} tenant(s) failed, ${completed} completed`);
    return { completed, skipped, failed };
  }

  /** Each is safe to run in several workers at once (row locks, ON CONFLICT DO NOTHING). */
  jobs(): Job[] {
    return [
      { name: 'expire-holds', schedule: '*/10 * * * * *', run: () => this.expireHolds.execute() },
      { name: 'balance-snapshots', schedule: '23 * * * *', run: () => this.takeSnapshots.execute() },
      { name: 'purge-expired-idempotency-keys', schedule: '17 * * * *', run: () => this.purgeExpiredKeys.execute() },
      { name: 'purge-published-events', schedule: '41 * * * *', run: () => this.purgePublishedEvents.execute() },
      { name: 'reconcile', schedule: this.reconcileCron, run: () => this.reconcileAllTenants() },
    ];
  }

  onApplicationBootstrap(): void {
    for (const job of this.jobs()) {
      const task = cron.schedule(job.schedule, () => this.track(this.runOnce(job)), {
        name: job.name,
        noOverlap: true,
      });
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

  private track(run: Promise<void>): Promise<void> {
    this.inProgress.add(run);
    return run.finally(() => this.inProgress.delete(run));
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.tasks.map((task) => task.destroy()));
    await Promise.all(this.inProgress);
  }
}
