import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AuthModule } from '@ledger/auth';
import { type Database, DatabaseModule } from '@ledger/db';
import { IdempotencyModule } from '@ledger/idempotency';
import { ImportsModule } from '@ledger/imports';
import { ReconciliationModule } from '@ledger/reconciliation';
import { LedgerModule } from '@ledger/ledger';
import { OutboxModule } from '@ledger/outbox';
import { AccountsController } from './controllers/accounts.controller';
import { ApiKeysController } from './controllers/api-keys.controller';
import { EventsController } from './controllers/events.controller';
import { HealthController } from './controllers/health.controller';
import { ImportsController } from './controllers/imports.controller';
import { MatchesController } from './controllers/matches.controller';
import { MatchingRulesController } from './controllers/matching-rules.controller';
import { ReconciliationController } from './controllers/reconciliation.controller';
import { SourcesController } from './controllers/sources.controller';
import { StatementLinesController } from './controllers/statement-lines.controller';
import { TenantsController } from './controllers/tenants.controller';
import { TransactionsController } from './controllers/transactions.controller';
import { AllExceptionsFilter } from './http/all-exceptions.filter';

export interface ApiModuleOptions {
  database: Database;
  operatorToken: string | undefined;
}

@Module({})
export class ApiModule {
  static forRoot(options: ApiModuleOptions): DynamicModule {
    return {
      module: ApiModule,
      imports: [
        DatabaseModule.forRoot(options.database),
        AuthModule.forRoot({ operatorToken: options.operatorToken }),
        IdempotencyModule,
        LedgerModule,
        OutboxModule,
        ImportsModule,
        ReconciliationModule,
      ],
      controllers: [
        HealthController,
        TenantsController,
        ApiKeysController,
        AccountsController,
        TransactionsController,
        EventsController,
        SourcesController,
        ImportsController,
        StatementLinesController,
        ReconciliationController,
        MatchesController,
        MatchingRulesController,
      ],
      providers: [{ provide: APP_FILTER, useClass: AllExceptionsFilter }],
    };
  }
}
