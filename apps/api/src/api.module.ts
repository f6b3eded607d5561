import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR } from '@nestjs/core';
import { AuthModule, type RateLimit } from '@ledger/auth';
import { type Database, DatabaseModule } from '@ledger/db';
import { IdempotencyModule, assertPostsStateIdempotency } from '@ledger/idempotency';
import { ImportsModule } from '@ledger/imports';
import { InboxModule } from '@ledger/inbox';
import { RUN_LEASE_SECONDS, ReconciliationModule, ReconciliationSettingsModule } from '@ledger/reconciliation';
import { LedgerModule } from '@ledger/ledger';
import type { EdgeConfig, EventDeliveryConfig, MetricsConfig } from '@ledger/config';
import { OutboxModule, WebhooksModule } from '@ledger/outbox';
import { PaymentsModule } from '@ledger/payments';
import { ProofsModule } from '@ledger/proofs';
import { ExportsModule } from '@ledger/exports';
import { AccountsController } from './controllers/accounts.controller';
import { ConversionsController } from './controllers/conversions.controller';
import { ConnectorsController } from './controllers/connectors.controller';
import { PaymentOrdersController } from './controllers/payment-orders.controller';
import { ApiKeysController } from './controllers/api-keys.controller';
import { EventsController } from './controllers/events.controller';
import { ExportsController } from './controllers/exports.controller';
import { HealthController } from './controllers/health.controller';
import { ImportsController } from './controllers/imports.controller';
import { AuditLogController } from './controllers/audit-log.controller';
import { DiscrepancyAdjustmentsController } from './controllers/discrepancy-adjustments.controller';
import { InboundController } from './controllers/inbound.controller';
import { MatchesController } from './controllers/matches.controller';
import { MatchingRulesController } from './controllers/matching-rules.controller';
import { MetricsController } from './controllers/metrics.controller';
import { ProofsController } from './controllers/proofs.controller';
import { ReconciliationController } from './controllers/reconciliation.controller';
import { DiscrepanciesController } from './controllers/discrepancies.controller';
import { SourcesController } from './controllers/sources.controller';
import { StatementLinesController } from './controllers/statement-lines.controller';
import { TenantsController } from './controllers/tenants.controller';
import { TransactionsController } from './controllers/transactions.controller';
import { WebhooksController } from './controllers/webhooks.controller';
import { OwnerRoutesController } from './controllers/owner-routes.controller';
import { EVENT_DELIVERY_CONFIG } from './event-delivery-config';
import { AllExceptionsFilter } from './http/all-exceptions.filter';
import { ReadConsistencyInterceptor } from './http/read-consistency.interceptor';
import { StatementUploadReception, UPLOAD_DIRECTORY } from './http/statement-upload';
import { UploadSlots } from './http/upload-slots';
import { LedgerMetrics, METRICS_CONFIG } from './metrics/ledger-metrics';
import { OPERATIONS_TOKENS, type OperationsTokens } from './metrics/operations-token.guard';

export interface ApiModuleOptions {
  database: Database;
  operatorToken: string | undefined;
  rateLimit?: RateLimit;
  /** Limits per tenant, address and upload; the inbound body limit; the proxy trusted. */
  edge: EdgeConfig;
  events: EventDeliveryConfig;
  /** Ed25519 private key (PEM) that signs balance proofs; without one, proofs answer 503. */
  signingKey: string | undefined;
  /** Reconciliation run lease; the documented default when not given. */
  runLeaseSeconds?: number;
  /** /metrics: its token and cache; without them the operator token only, figures kept 5 s. */
  metrics?: MetricsConfig;
  /** New balance proofs per tenant per minute; the documented default when not given. */
  proofsPerMinuteMax?: number;
}

const CONTROLLERS = [
  HealthController,
  TenantsController,
  ApiKeysController,
  AccountsController,
  TransactionsController,
  ConversionsController,
  PaymentOrdersController,
  ConnectorsController,
  EventsController,
  SourcesController,
  ImportsController,
  StatementLinesController,
  ReconciliationController,
  DiscrepanciesController,
  DiscrepancyAdjustmentsController,
  OwnerRoutesController,
  MatchesController,
  MatchingRulesController,
  AuditLogController,
  WebhooksController,
  InboundController,
  MetricsController,
  ProofsController,
  ExportsController,
];

const METRICS_DEFAULTS: MetricsConfig = { token: undefined, cacheSeconds: 5 };

@Module({})
export class ApiModule {
  static forRoot(options: ApiModuleOptions): DynamicModule {
    assertPostsStateIdempotency(CONTROLLERS);
    return {
      module: ApiModule,
      imports: [
        DatabaseModule.forRoot(options.database),
        AuthModule.forRoot({
          operatorToken: options.operatorToken,
          limits: {
            perKey: options.rateLimit,
            perTenant: options.edge.tenantRateLimit,
            failedAuthentications: options.edge.authFailureLimit,
            keyCacheSeconds: options.edge.keyCacheSeconds,
          },
        }),
        IdempotencyModule,
        LedgerModule,
        OutboxModule,
        WebhooksModule.forRoot(options.events.webhooks),
        InboxModule,
        ImportsModule,
        ReconciliationSettingsModule.forRoot({ runLeaseSeconds: options.runLeaseSeconds ?? RUN_LEASE_SECONDS }),
        ReconciliationModule,
        PaymentsModule,
        ProofsModule.forRoot({ signingKey: options.signingKey, issuedPerMinuteMax: options.proofsPerMinuteMax }),
        ExportsModule,
      ],
      controllers: CONTROLLERS,
      providers: [
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        // Only with a read replica. The root module's global interceptor runs outside those of the imported
        // modules, the idempotency interceptor's transaction among them: a write's token follows its commit.
        ...(options.database.replica === undefined
          ? []
          : [{ provide: APP_INTERCEPTOR, useClass: ReadConsistencyInterceptor }]),
        { provide: EVENT_DELIVERY_CONFIG, useValue: options.events },
        { provide: METRICS_CONFIG, useValue: options.metrics ?? METRICS_DEFAULTS },
        {
          provide: OPERATIONS_TOKENS,
          useValue: {
            metricsToken: (options.metrics ?? METRICS_DEFAULTS).token,
            operatorToken: options.operatorToken,
          } satisfies OperationsTokens,
        },
        LedgerMetrics,
        { provide: UPLOAD_DIRECTORY, useValue: options.edge.uploads.directory },
        { provide: UploadSlots, useValue: new UploadSlots(options.edge.uploads) },
        StatementUploadReception,
      ],
    };
  }
}
