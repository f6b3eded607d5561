import { type DynamicModule, Module } from '@nestjs/common';
import { TenantsModule } from '@ledger/auth';
import type { EventDeliveryConfig } from '@ledger/config';
import { type Database, DatabaseModule } from '@ledger/db';
import { IdempotencyModule } from '@ledger/idempotency';
import { LedgerModule } from '@ledger/ledger';
import { EventDeliveryModule } from '@ledger/outbox';
import { ReconciliationModule, ReconciliationSettingsModule } from '@ledger/reconciliation';
import { EventDeliveryJobs } from './event-delivery-jobs';
import { RECONCILE_CRON, ScheduledJobs } from './scheduled-jobs';

export interface WorkerOptions {
  reconcileCron: string;
  runLeaseSeconds: number;
  events: EventDeliveryConfig;
}

@Module({})
export class WorkerModule {
  static forRoot(database: Database, options: WorkerOptions): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        DatabaseModule.forRoot(database),
        TenantsModule,
        IdempotencyModule,
        LedgerModule,
        ReconciliationSettingsModule.forRoot({ runLeaseSeconds: options.runLeaseSeconds }),
        ReconciliationModule,
        EventDeliveryModule.forRoot(options.events),
      ],
      providers: [ScheduledJobs, EventDeliveryJobs, { provide: RECONCILE_CRON, useValue: options.reconcileCron }],
    };
  }
}
