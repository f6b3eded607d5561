import { setTimeout as sleep } from 'node:timers/promises';
import {
  type EventPublisher,
  type LedgerEvent,
  NoEventPublisher,
  PurgePublishedEventsUseCase,
  RelayRepository,
  WebhookRepository,
} from '@ledger/outbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, TEST_OPERATOR_TOKEN, startApi } from './support/api-harness';
import { type TestTenant, mustPost, seededTenant, sqlRows, transfer, walletAndShop } from './support/ledger-fixtures';
import { financeKey, runReconciliation } from './support/reconciliation-fixtures';
import { relayLoop, relayOf, waitUntil, webhookQueueOf } from './support/relay-fixtures';

let api: ApiHarness;
let tenant: TestTenant;

beforeAll(async () => {
  api = await startApi({ settings: { LEDGER_OUTBOX_LAG_WARN_SECONDS: '1' } });
  tenant = await seededTenant(api, 'operations');
});

afterAll(async () => {
  await api.close();
});

async function postSome(count: number): Promise<void> {
  const { wallet, shop } = await walletAndShop(api, tenant);
  await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, String(count)));
  for (let i = 0; i < count - 1; i++) await mustPost(api, tenant.posterKey, transfer(wallet, shop, '1'));
}

async function metrics(): Promise<Map<string, number>> {
  const response = await fetch(`${api.baseUrl}/metrics`, {
    headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const samples = new Map<string, number>();
  for (const line of (await response.text()).split('\n')) {
    const match = /^([a-z_]+(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (match) samples.set(match[1]!, Number(match[2]));
  }
  return samples;
}

async function unpublished(): Promise<number> {
  return (
    await sqlRows<{ n: number }>(api, `SELECT count(*)::int AS n FROM outbox_events WHERE published_at IS NULL`)
  )[0]!.n;
}

/** Slow enough that a shutdown arrives in the middle of a batch. */
class SlowPublisher implements EventPublisher {
  readonly name = 'slow';
  readonly published: LedgerEvent[] = [];

  async publish(event: LedgerEvent): Promise<void> {
    await sleep(40);
    this.published.push(event);
  }

  async close(): Promise<void> {}
}

describe('event delivery operations', () => {
  it('/metrics: posting rate and latency, outbox lag, webhook deliveries and reconciliation outcomes', async () => {
    await postSome(3);
    await runReconciliation(api, await financeKey(api, tenant));
    const samples = await metrics();
    expect(samples.get('ledger_postings_total{operation="post",status="2xx"}')).toBe(3);
    expect(samples.get('ledger_posting_duration_seconds_count{operation="post"}')).toBe(3);
    expect(samples.get('ledger_posting_duration_seconds_sum{operation="post"}')).toBeGreaterThan(0);
    expect(samples.get('ledger_outbox_unpublished_events')).toBe(await unpublished());
    expect(samples.get('ledger_outbox_unpublished_events')).toBeGreaterThan(3);
    expect(samples.get('ledger_webhook_unqueued_events')).toBeGreaterThan(3);
    expect(samples.get('ledger_outbox_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(samples.get('ledger_webhook_queue_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(samples.get('ledger_webhook_deliveries{status="dead"}')).toBe(0);
    expect(samples.get('ledger_webhook_deliveries{status="retrying"}')).toBe(0);
    expect(samples.get('ledger_reconciliation_runs{status="completed"}')).toBe(1);
    expect(samples.has('process_cpu_user_seconds_total')).toBe(true);
  });

  it('/health warns while an event waits on the relay or webhook queue too long, ok once both ran', async () => {
    await sleep(1_100);
    const lagging = await api.request('GET', '/health');
    expect(lagging.status, 'a lagging relay is a warning, not an outage').toBe(200);
    expect(lagging.body).toMatchObject({
      status: 'warn',
      database: 'up',
      outbox: { status: 'lagging', lagging: ['relay', 'webhookQueue'] },
      warnings: [expect.stringMatching(/relay/), expect.stringMatching(/webhook queue/)],
    });
    expect(lagging.body.outbox.oldestUnpublishedAgeSeconds).toBeGreaterThanOrEqual(1);
    expect(lagging.body.outbox.oldestUnqueuedAgeSeconds).toBeGreaterThanOrEqual(1);

    const relay = relayOf(api, new NoEventPublisher());
    while ((await relay.execute()).claimed > 0);
    const webhooksOnly = await api.request('GET', '/health');
    expect(webhooksOnly.body).toMatchObject({
      status: 'warn',
      outbox: { status: 'lagging', lagging: ['webhookQueue'], oldestUnpublishedAgeSeconds: 0 },
      warnings: [expect.stringMatching(/webhook queue/)],
    });

    const webhookQueue = webhookQueueOf(api);
    while ((await webhookQueue.execute()).claimed > 0);
    const healthy = await api.request('GET', '/health');
    expect(healthy.body).toMatchObject({
      status: 'ok',
      outbox: {
        status: 'ok',
        lagging: [],
        oldestUnpublishedAgeSeconds: 0,
        oldestUnqueuedAgeSeconds: 0,
      },
      warnings: [],
    });
  });

  it('a relay told to stop finishes its batch: every event it published is marked, none left half done', async () => {
    await postSome(12);
    const before = await unpublished();
    const publisher = new SlowPublisher();
    const loop = relayLoop(relayOf(api, publisher, { batchSizeMax: 5 }));
    loop.start();
    await waitUntil(async () => publisher.published.length >= 1, 5_000, 'the first batch is under way');
    await loop.stop();
    const published = publisher.published.length;
    expect(published % 5, 'whole batches only').toBe(0);
    expect(published).toBeLessThan(before);
    expect(await unpublished()).toBe(before - published);
  });

  it('cleanup deletes published events past the retention whose webhooks are queued, and keeps the rest', async () => {
    const count = async (where: string) =>
      (await sqlRows<{ n: number }>(api, `SELECT count(*)::int AS n FROM outbox_events WHERE ${where}`))[0]!.n;
    const total = await count('true');
    const waiting = await unpublished();
    expect(waiting).toBeGreaterThan(0);
    // The previous test's relay published events that no webhook queue has seen since.
    const publishedAndQueued = await count('published_at IS NOT NULL AND webhooks_queued_at IS NOT NULL');
    expect(publishedAndQueued).toBeLessThan(total - waiting);
    const purge = new PurgePublishedEventsUseCase(
      new RelayRepository(api.db.database),
      new WebhookRepository(api.db.database),
      168,
    );
    const afterRetention = new Date(Date.now() + 169 * 3_600_000);
    expect(await purge.execute()).toEqual({ events: 0, deliveries: 0 });
    // Published events whose webhooks are not queued yet are kept; once the queue ran, they go too.
    expect(await purge.execute(afterRetention)).toEqual({ events: publishedAndQueued, deliveries: 0 });
    const webhookQueue = webhookQueueOf(api);
    while ((await webhookQueue.execute()).claimed > 0);
    expect(await purge.execute(afterRetention)).toEqual({
      events: total - waiting - publishedAndQueued,
      deliveries: 0,
    });
    expect((await sqlRows<{ n: number }>(api, `SELECT count(*)::int AS n FROM outbox_events`))[0]!.n).toBe(waiting);
  });
});
