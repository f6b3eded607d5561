import { type DynamicModule, Module } from '@nestjs/common';
import { type Database, DatabaseModule } from '@ledger/db';
import { IdempotencyModule } from '@ledger/idempotency';
import { LedgerModule } from '@ledger/ledger';
import { ScheduledJobs } from './scheduled-jobs';

@Module({})
export class WorkerModule {
  static forRoot(database: Database): DynamicModule {
    return {
      module: WorkerModule,
      imports: [DatabaseModule.forRoot(database), IdempotencyModule, LedgerModule],
      providers: [ScheduledJobs],
    };
  }
}
