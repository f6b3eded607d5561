import { Injectable } from '@nestjs/common';
import { GetOutboxBacklogUseCase, WebhookStatisticsUseCase } from '@ledger/outbox';
import { ReconciliationStatisticsUseCase } from '@ledger/reconciliation';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One read shared by the gauges that ask for it during one scrape (prom-client collects them all at once). */
function sharedWhileInFlight<T>(read: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | undefined;
  return () => (inFlight ??= read().finally(() => (inFlight = undefined)));
}

/**
 * Prometheus metrics of this API process. Postings are measured here as they are answered; the
 * outbox, webhook and reconciliation figures are read from the database at each scrape, so they are
 * the same whichever process is scraped (the relay and webhook sender run in the worker).
 */
@Injectable()
export class LedgerMetrics {
  readonly registry = new Registry();

  readonly postings = new Counter({
    name: 'ledger_postings_total',
    help: 'Posting requests answered (POST /v1/transactions and its sub-routes), by operation and status class',
    labelNames: ['operation', 'status'] as const,
    registers: [this.registry],
  });

  readonly postingSeconds = new Histogram({
    name: 'ledger_posting_duration_seconds',
    help: 'Time to answer a posting request, by operation',
    labelNames: ['operation'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  constructor(
    outboxBacklog: GetOutboxBacklogUseCase,
    webhooks: WebhookStatisticsUseCase,
    reconciliation: ReconciliationStatisticsUseCase,
  ) {
    collectDefaultMetrics({ register: this.registry });
    const registers = [this.registry];
    const backlog = sharedWhileInFlight(() => outboxBacklog.execute({ lagWarnSeconds: 0 }));
    new Gauge({
      name: 'ledger_outbox_unpublished_events',
      help: 'Outbox events not yet published by the relay',
      registers,
      async collect() {
        this.set(Number((await backlog()).unpublished));
      },
    });
    new Gauge({
      name: 'ledger_outbox_lag_seconds',
      help: 'Age of the oldest unpublished outbox event (0 when none waits); grows when the relay is stuck',
      registers,
      async collect() {
        this.set((await backlog()).oldestUnpublishedAgeSeconds);
      },
    });
    new Gauge({
      name: 'ledger_webhook_queue_lag_seconds',
      help: 'Age of the oldest outbox event whose webhook deliveries are not written yet (0 when none waits)',
      registers,
      async collect() {
        this.set((await backlog()).oldestUnqueuedAgeSeconds);
      },
    });
    new Gauge({
      name: 'ledger_webhook_deliveries',
      help: 'Webhook deliveries by status (dead: dead-lettered after the last attempt)',
      labelNames: ['status'] as const,
      registers,
      async collect() {
        const statistics = await webhooks.execute();
        for (const [status, count] of Object.entries(statistics.deliveries)) this.set({ status }, count);
        this.set({ status: 'retrying' }, statistics.retrying);
      },
    });
    new Gauge({
      name: 'ledger_reconciliation_runs',
      help: 'Reconciliation runs by outcome',
      labelNames: ['status'] as const,
      registers,
      async collect() {
        this.reset();
        for (const [status, count] of Object.entries((await reconciliation.execute()).runs))
          this.set({ status }, count);
      },
    });
    new Gauge({
      name: 'ledger_discrepancies_open',
      help: 'Discrepancy tickets open or acknowledged, by kind',
      labelNames: ['kind'] as const,
      registers,
      async collect() {
        this.reset();
        for (const [kind, count] of Object.entries((await reconciliation.execute()).openTickets))
          this.set({ kind }, count);
      },
    });
  }
}
