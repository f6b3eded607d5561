import { type DynamicModule, Module } from '@nestjs/common';
import { type Database, DatabaseModule } from '@ledger/db';
import { IdempotencyModule } from '@ledger/idempotency';
import { LedgerModule } from '@ledger/ledger';
import { ReconciliationModule } from '@ledger/reconciliation';
import { RECONCILE_CRON, ScheduledJobs } from './scheduled-jobs';

@Module({})
export class WorkerModule {
  static forRoot(database: Database, options: { reconcileCron: string }): DynamicModule {
    return {
      module: WorkerModule,
      imports: [DatabaseModule.forRoot(database), IdempotencyModule, LedgerModule, ReconciliationModule],
      providers: [ScheduledJobs, { provide: RECONCILE_CRON, useValue: options.reconcileCron }],
    };
  }
}
