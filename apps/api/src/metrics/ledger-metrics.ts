import { Inject, Injectable } from '@nestjs/common';
import type { MetricsConfig } from '@ledger/config';
import { Database, type ReadReplica } from '@ledger/db';
import { PostingGroups } from '@ledger/ledger';
import { GetOutboxBacklogUseCase, WebhookStatisticsUseCase } from '@ledger/outbox';
import { ReconciliationStatisticsUseCase } from '@ledger/reconciliation';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const METRICS_CONFIG = Symbol('METRICS_CONFIG');

/**
 * One read shared by every caller while it runs (prom-client collects all gauges at once) and for
 * `seconds` after it answered, so scrapes, however frequent, ask the database at most once per
 * period. A failed read is not kept: the next call tries again.
 */
export function cachedFor<T>(seconds: number, read: () => Promise<T>): () => Promise<T> {
  let entry: { value: Promise<T>; expiresAt: number } | undefined;
  return () => {
    if (entry !== undefined && Date.now() < entry.expiresAt) return entry.value;
    const current = { value: read(), expiresAt: Number.POSITIVE_INFINITY };
    entry = current;
    current.value.then(
      () => {
        current.expiresAt = Date.now() + seconds * 1000;
      },
      () => {
        if (entry === current) entry = undefined;
      },
    );
    return current.value;
  };
}

/**
 * Prometheus metrics of this API process. Postings are measured here as they are answered; the
 * outbox, webhook and reconciliation figures are read from the database, at most once per
 * `LEDGER_METRICS_CACHE_SECONDS`, so they are the same whichever process is scraped (the relay and
 * webhook sender run in the worker). They are summed over every tenant: only the operator's scraper
 * may read them (OperationsTokenGuard).
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

  readonly postingGroups = new Counter({
    name: 'ledger_posting_groups_total',
    help:
      'Transactions written by group commit, by lane (postings: POST /v1/transactions; batches: ' +
      'POST /v1/transactions/batch) and attempt (group: first try; retry: again after a database error; alone: ' +
      'one request after both failed)',
    labelNames: ['lane', 'attempt'] as const,
    registers: [this.registry],
  });

  readonly postingGroupItems = new Histogram({
    name: 'ledger_posting_group_items',
    help: 'Postings written per group commit transaction, by lane (1: a single posting went alone)',
    labelNames: ['lane'] as const,
    buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1000],
    registers: [this.registry],
  });

  readonly batchesPlannedAgain = new Counter({
    name: 'ledger_batches_planned_again_total',
    help:
      "Groups of batches (POST /v1/transactions/batch) planned again under their accounts' locks because another " +
      'posting moved the accounts between the read they were planned on and the locks (the first try rolled back)',
    registers: [this.registry],
  });

  constructor(
    groups: PostingGroups,
    outboxBacklog: GetOutboxBacklogUseCase,
    webhooks: WebhookStatisticsUseCase,
    reconciliation: ReconciliationStatisticsUseCase,
    @Inject(METRICS_CONFIG) config: MetricsConfig,
    database: Database,
  ) {
    collectDefaultMetrics({ register: this.registry });
    groups.onGroupWritten(({ lane, items, attempt }) => {
      this.postingGroups.inc({ lane, attempt });
      this.postingGroupItems.observe({ lane }, items);
    });
    groups.onPlannedAgain(() => this.batchesPlannedAgain.inc());
    const registers = [this.registry];
    if (database.replica !== undefined) this.measureReplica(database.replica);
    const backlog = cachedFor(config.cacheSeconds, () => outboxBacklog.execute({ lagWarnSeconds: 0 }));
    const deliveries = cachedFor(config.cacheSeconds, () => webhooks.execute());
    const runsAndTickets = cachedFor(config.cacheSeconds, () => reconciliation.execute());
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
      name: 'ledger_webhook_unqueued_events',
      help: 'Outbox events whose webhook deliveries the webhook queue has not written yet',
      registers,
      async collect() {
        this.set(Number((await backlog()).webhooksUnqueued));
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
        const statistics = await deliveries();
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
        for (const [status, count] of Object.entries((await runsAndTickets()).runs)) this.set({ status }, count);
      },
    });
    new Gauge({
      name: 'ledger_discrepancies_open',
      help: 'Discrepancy tickets open or acknowledged, by kind',
      labelNames: ['kind'] as const,
      registers,
      async collect() {
        this.reset();
        for (const [kind, count] of Object.entries((await runsAndTickets()).openTickets)) this.set({ kind }, count);
      },
    });
  }

  /** With a read replica: its lag and state as the background check saw them, where reads went, token waits. */
  private measureReplica(replica: ReadReplica): void {
    const registers = [this.registry];
    new Gauge({
      name: 'ledger_replica_lag_seconds',
      help: 'How far the read replica is behind the primary (accurate to its 1 s check; NaN while it does not answer)',
      registers,
      collect() {
        this.set(replica.status.lagSeconds ?? Number.NaN);
      },
    });
    new Gauge({
      name: 'ledger_replica_state',
      help: 'The read replica state (1 for the current one): ok, lagging (bypassed), down (bypassed)',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const { state } = replica.status;
        for (const each of ['ok', 'lagging', 'down'] as const) this.set({ state: each }, each === state ? 1 : 0);
      },
    });
    const reads = new Counter({
      name: 'ledger_reads_total',
      help: 'Read-only requests of routes that may use the read replica, by what served them (replica or primary)',
      labelNames: ['served_by'] as const,
      registers,
    });
    const waits = new Counter({
      name: 'ledger_read_consistency_waits_total',
      help:
        'Reads with a Ledger-Consistency token, by outcome (immediate: the replica had it; caught_up: it did within ' +
        'the wait; timed_out and bypassed: the primary served it)',
      labelNames: ['outcome'] as const,
      registers,
    });
    replica.onRead((servedBy) => reads.inc({ served_by: servedBy }));
    replica.onConsistencyWait((outcome) => waits.inc({ outcome }));
  }
}
