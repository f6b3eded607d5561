import { type DynamicModule, Module } from '@nestjs/common';
import { TenantsModule } from '@ledger/auth';
import type { EventDeliveryConfig } from '@ledger/config';
import { type Database, DatabaseModule } from '@ledger/db';
import { IdempotencyModule } from '@ledger/idempotency';
import { LedgerModule } from '@ledger/ledger';
import { EventDeliveryModule } from '@ledger/outbox';
import { PaymentsModule } from '@ledger/payments';
import { ReconciliationModule, ReconciliationSettingsModule } from '@ledger/reconciliation';
import { EventDeliveryJobs } from './event-delivery-jobs';
import { PaymentOrderJobs } from './payment-order-jobs';
import { QueuedRunJobs } from './queued-run-jobs';
import { RECONCILE_CRON, ScheduledJobs } from './scheduled-jobs';

export interface JobsOptions {
  reconcileCron: string;
  runLeaseSeconds: number;
  events: EventDeliveryConfig;
}

/**
 * The worker's jobs: the scheduled ones (hold expiry, snapshots, purges, reconciliation), the event
 * delivery loops, the queue of reconciliation runs started through the API, and the payment orders'
 * saga. The worker process runs them, and so does the API process in embedded mode (or with
 * LEDGER_WORKER_IN_PROCESS=true).
 */
@Module({})
export class JobsModule {
  static forRoot(database: Database, options: JobsOptions): DynamicModule {
    return {
      module: JobsModule,
      imports: [
        DatabaseModule.forRoot(database),
        TenantsModule,
        IdempotencyModule,
        LedgerModule,
        ReconciliationSettingsModule.forRoot({ runLeaseSeconds: options.runLeaseSeconds }),
        ReconciliationModule,
        PaymentsModule,
        EventDeliveryModule.forRoot(options.events),
      ],
      providers: [
        ScheduledJobs,
        EventDeliveryJobs,
        QueuedRunJobs,
        PaymentOrderJobs,
        { provide: RECONCILE_CRON, useValue: options.reconcileCron },
      ],
    };
  }
}
