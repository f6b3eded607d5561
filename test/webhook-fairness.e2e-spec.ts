import { createServer } from 'node:http';
import type { INestApplicationContext } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import {
  type TestTenant,
  mustPost,
  postWithKey,
  seededTenant,
  transfer,
  walletAndShop,
} from './support/ledger-fixtures';
import { waitUntil } from './support/relay-fixtures';
import { Tarpit } from './support/tarpit';
import { WebhookReceiver } from './support/webhook-receiver';
import { startWorker } from './support/worker-harness';

// One worker with 8 slots, at most 4 deliveries in flight per tenant and 1 per subscription. The
// response timeout is long on purpose: the fairness test shows another tenant served while a tarpit
// holds its connections, so nothing may time out first.
const SETTINGS = {
  LEDGER_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  LEDGER_WEBHOOK_TIMEOUT_MS: '30000',
  LEDGER_WEBHOOK_CONNECT_TIMEOUT_MS: '3000',
  LEDGER_WEBHOOK_CONCURRENCY: '8',
  LEDGER_WEBHOOK_TENANT_CONCURRENCY_MAX: '4',
  LEDGER_WEBHOOK_SUBSCRIPTION_CONCURRENCY_MAX: '1',
  LEDGER_WEBHOOK_BACKOFF_BASE_MS: '40',
  LEDGER_WEBHOOK_BACKOFF_CAP_MS: '200',
  LEDGER_WEBHOOK_BREAKER_FAILURES: '3',
  LEDGER_WEBHOOK_BREAKER_PARK_BASE_MS: '600000',
  LEDGER_WEBHOOK_BREAKER_PARK_CAP_MS: '600000',
};
const TENANT_CONCURRENCY_MAX = 4;

let api: ApiHarness;
let worker: INestApplicationContext;
let secondWorker: INestApplicationContext;
const tarpit = new Tarpit();
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  api = await startApi({ settings: SETTINGS });
  worker = await startWorker(api, SETTINGS);
  secondWorker = await startWorker(api, SETTINGS);
});

afterAll(async () => {
  await tarpit.stop();
  for (const receiver of receivers) await receiver.stop();
  await worker?.close();
  await secondWorker?.close();
  await api?.close();
});

async function receiver(decide: ConstructorParameters<typeof WebhookReceiver>[0]) {
  const created = new WebhookReceiver(decide);
  receivers.push(created);
  return { receiver: created, url: await created.start() };
}

async function subscribe(tenant: TestTenant, url: string): Promise<string> {
  const created = await postWithKey(api, tenant.adminKey, '/v1/webhooks', { url, events: ['transaction.posted'] });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id;
}

/** `count` transaction.posted events, and one more for the seed transfer. */
async function postTransfers(tenant: TestTenant, count: number): Promise<void> {
  const { wallet, shop } = await walletAndShop(api, tenant);
  await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, '1000'));
  for (let i = 0; i < count; i++) await mustPost(api, tenant.posterKey, transfer(wallet, shop, '10'));
}

async function attemptedDeliveries(tenant: TestTenant): Promise<number> {
  const [row] = await api.db.database.sql.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = $1 AND attempts > 0',
    [tenant.tenantId],
  );
  return row!.n;
}

async function webhook(tenant: TestTenant, id: string) {
  const listed = await api.request('GET', '/v1/webhooks', { key: tenant.adminKey });
  return listed.body.data.find((each: { id: string }) => each.id === id);
}

/** An endpoint that answers 204 after a pause, and counts the requests it holds at once. */
async function slowReceiver(pauseMs: number) {
  const seen = { open: 0, peakOpen: 0, eventIds: [] as string[] };
  const server = createServer((request, response) => {
    seen.open++;
    seen.peakOpen = Math.max(seen.peakOpen, seen.open);
    seen.eventIds.push(String(request.headers['ledger-event-id']));
    request.resume();
    setTimeout(() => {
      seen.open--;
      response.writeHead(204).end();
    }, pauseMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hooks`;
  return { seen, url, stop: () => new Promise((resolve) => server.close(resolve)) };
}

describe('webhook delivery fairness', () => {
  it('two workers together keep to the per-subscription cap and send each delivery once', async () => {
    const tenant = await seededTenant(api, 'two workers');
    const endpoint = await slowReceiver(100);
    try {
      await subscribe(tenant, endpoint.url);
      await postTransfers(tenant, 9);
      await waitUntil(async () => endpoint.seen.eventIds.length >= 10, 30_000, 'all 10 events are delivered');
      await waitUntil(async () => endpoint.seen.open === 0, 5_000, 'the last answer is sent');
      expect(new Set(endpoint.seen.eventIds).size).toBe(10);
      expect(endpoint.seen.eventIds, 'each delivery sent once').toHaveLength(10);
      expect(endpoint.seen.peakOpen, 'in flight at once for the one subscription').toBe(1);
    } finally {
      await endpoint.stop();
    }
  });

  it("a tenant's tarpit endpoints hold only its own slots: another tenant's deliveries all arrive first", async () => {
    const tarpitUrl = await tarpit.start();
    const hostile = await seededTenant(api, 'tarpit owner');
    for (let i = 0; i < 12; i++) await subscribe(hostile, `${tarpitUrl}/hooks/${i}`);
    await postTransfers(hostile, 2); // 12 subscriptions x 3 events: 36 deliveries that never get an answer
    await waitUntil(async () => tarpit.waiting() >= TENANT_CONCURRENCY_MAX, 20_000, 'the tarpit holds requests');

    const victim = await seededTenant(api, 'tarpit neighbour');
    const { receiver: endpoint, url } = await receiver(() => 204);
    await subscribe(victim, url);
    await postTransfers(victim, 5);
    await waitUntil(async () => endpoint.accepted().length >= 6, 140_000, "the neighbour's 6 events arrive");

    // Before any tarpit request has ended (answered or timed out), every event of the neighbour is in.
    expect(await attemptedDeliveries(hostile), 'tarpit deliveries finished').toBe(0);
    expect(new Set(endpoint.accepted().map((event) => event.id)).size).toBe(6);
    // The caps held across the whole time: per tenant, and per subscription (one path each).
    expect(tarpit.peakOpen).toBeLessThanOrEqual(TENANT_CONCURRENCY_MAX);
    expect(Math.max(...tarpit.peakOpenPerPath.values())).toBe(1);
    await tarpit.stop();
  }, 150_000);

  it('parks a failing endpoint after N failures in a row, sends nothing meanwhile, and a probe closes it', async () => {
    const tenant = await seededTenant(api, 'breaker');
    let healthy = false;
    const { receiver: failing, url: failingUrl } = await receiver(() => (healthy ? 200 : 500));
    const { receiver: steady, url: steadyUrl } = await receiver(() => 200);
    const failingId = await subscribe(tenant, failingUrl);
    await subscribe(tenant, steadyUrl);

    await postTransfers(tenant, 4); // 5 events to each subscription
    await waitUntil(async () => (await webhook(tenant, failingId)).parkedUntil !== null, 20_000, 'the breaker opens');
    // Later events still reach the healthy subscription, while the parked one gets nothing more.
    await waitUntil(async () => steady.accepted().length >= 5, 20_000, 'the healthy subscription gets every event');
    await postTransfers(tenant, 1);
    await waitUntil(async () => steady.accepted().length >= 7, 20_000, 'later events reach the healthy one');
    expect(failing.requests).toHaveLength(3);
    const parked = await webhook(tenant, failingId);
    expect(parked).toMatchObject({ consecutiveFailures: 3, parkedUntil: expect.any(String) });
    expect(Date.parse(parked.parkedUntil)).toBeGreaterThan(Date.now() + 60_000);

    // The park ends (moved to now rather than waiting ten minutes): one probe, it succeeds, the breaker closes.
    healthy = true;
    await api.db.database.sql.query('UPDATE webhook_subscriptions SET parked_until = now() WHERE id = $1', [failingId]);
    await waitUntil(async () => failing.accepted().length >= 7, 20_000, 'the parked subscription catches up');
    expect(new Set(failing.accepted().map((event) => event.id)).size).toBe(7);
    expect(await webhook(tenant, failingId)).toMatchObject({ consecutiveFailures: 0, parkedUntil: null });
  });
});
