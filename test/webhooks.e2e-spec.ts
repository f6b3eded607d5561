import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import {
  type TestTenant,
  expectError,
  expectValidationError,
  mustPost,
  postWithKey,
  seededTenant,
  setupTenant,
  transfer,
  walletAndShop,
} from './support/ledger-fixtures';
import { waitUntil } from './support/relay-fixtures';
import { WebhookReceiver, verifyLedgerSignature } from './support/webhook-receiver';
import { startWorker } from './support/worker-harness';

// Loopback targets are refused by default; these tests' receivers listen on loopback, so they allow it.
const SETTINGS = {
  LEDGER_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  LEDGER_WEBHOOK_ATTEMPTS_MAX: '4',
  LEDGER_WEBHOOK_BACKOFF_BASE_MS: '40',
  LEDGER_WEBHOOK_BACKOFF_CAP_MS: '200',
  LEDGER_WEBHOOK_TIMEOUT_MS: '2000',
  // Failing receivers here fail a few times in a row on purpose: the breaker parks them only briefly.
  LEDGER_WEBHOOK_BREAKER_PARK_BASE_MS: '40',
  LEDGER_WEBHOOK_BREAKER_PARK_CAP_MS: '200',
  LEDGER_WEBHOOK_SUBSCRIPTIONS_MAX: '3',
};

let api: ApiHarness;
let worker: INestApplicationContext;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  api = await startApi({ settings: SETTINGS });
  worker = await startWorker(api, SETTINGS);
});

afterAll(async () => {
  await worker?.close();
  for (const receiver of receivers) await receiver.stop();
  await api.close();
});

async function receiver(
  decide: ConstructorParameters<typeof WebhookReceiver>[0],
): Promise<{ receiver: WebhookReceiver; url: string }> {
  const created = new WebhookReceiver(decide);
  receivers.push(created);
  return { receiver: created, url: await created.start() };
}

async function subscribe(tenant: TestTenant, url: string, events: string[]): Promise<{ id: string; secret: string }> {
  const created = await postWithKey(api, tenant.adminKey, '/v1/webhooks', { url, events });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  expect(created.body.secret).toMatch(/^whsec_/);
  return created.body;
}

async function postTransfers(tenant: TestTenant, count: number): Promise<string[]> {
  const { wallet, shop } = await walletAndShop(api, tenant);
  await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, '1000'));
  const ids = [];
  for (let i = 0; i < count; i++) ids.push((await mustPost(api, tenant.posterKey, transfer(wallet, shop, '10'))).id);
  return ids;
}

function deliveries(tenant: TestTenant, webhookId: string, query = '') {
  return api.request('GET', `/v1/webhooks/${webhookId}/deliveries?limit=100${query}`, { key: tenant.adminKey });
}

describe('webhooks', () => {
  it('a receiver failing the first attempts gets each event when it recovers, signed, filtered by type', async () => {
    const tenant = await seededTenant(api, 'webhook retries');
    const attemptsByEvent = new Map<string, number>();
    const { receiver: endpoint, url } = await receiver(({ headers }) => {
      const id = String(headers['ledger-event-id']);
      const attempt = (attemptsByEvent.get(id) ?? 0) + 1;
      attemptsByEvent.set(id, attempt);
      return attempt <= 2 ? 503 : 204;
    });
    const webhook = await subscribe(tenant, url, ['transaction.posted']);
    const listed = await api.request('GET', '/v1/webhooks', { key: tenant.adminKey });
    expect(listed.body.data).toEqual([
      {
        id: webhook.id,
        url,
        events: ['transaction.posted'],
        createdAt: expect.any(String),
        previousSecretExpiresAt: null,
        consecutiveFailures: 0,
        parkedUntil: null,
      },
    ]);

    const posted = await postTransfers(tenant, 3);
    await waitUntil(async () => endpoint.accepted().length >= 4, 20_000, 'every transaction.posted event is accepted');

    const accepted = endpoint.accepted();
    expect(accepted.map((event) => event.type)).toEqual(Array(4).fill('transaction.posted'));
    expect(new Set(accepted.map((event) => event.id)).size, 'each event accepted once').toBe(4);
    expect(accepted.map((event) => event.aggregateId)).toEqual(expect.arrayContaining(posted));
    for (const request of endpoint.requests) {
      expect(
        verifyLedgerSignature(String(request.headers['ledger-signature']), request.body, webhook.secret),
        'signature',
      ).toBe(true);
      expect(
        verifyLedgerSignature(String(request.headers['ledger-signature']), `${request.body} `, webhook.secret),
      ).toBe(false);
      expect(request.headers['ledger-event-id']).toBe(JSON.parse(request.body).id);
    }
    const log = await deliveries(tenant, webhook.id);
    expect(log.status).toBe(200);
    expect(log.body.data).toHaveLength(4);
    for (const delivery of log.body.data)
      expect(delivery).toMatchObject({
        status: 'delivered',
        attempts: 3,
        lastResponseStatus: 204,
        eventType: 'transaction.posted',
      });
  });

  it('after the last attempt a delivery is dead-lettered and listed; a manual redelivery sends it again', async () => {
    // No account yet: the subscription then sees one account.created event only.
    const tenant = await setupTenant(api, 'webhook dead letters');
    let healthy = false;
    const { receiver: endpoint, url } = await receiver(() => (healthy ? 200 : 500));
    const webhook = await subscribe(tenant, url, ['account.created']);
    const account = await postWithKey(api, tenant.adminKey, '/v1/accounts', {
      code: 'assets:dead-letter',
      currency: 'USD',
      normalBalance: 'debit',
    });
    expect(account.status).toBe(201);

    await waitUntil(
      async () => (await deliveries(tenant, webhook.id, '&status=dead')).body.data.length === 1,
      20_000,
      'the delivery is dead-lettered',
    );
    const [dead] = (await deliveries(tenant, webhook.id, '&status=dead')).body.data;
    expect(dead).toMatchObject({
      status: 'dead',
      attempts: 4,
      lastResponseStatus: 500,
      lastError: 'answered 500',
      nextAttemptAt: null,
      eventType: 'account.created',
    });
    expect(endpoint.requests).toHaveLength(4);

    healthy = true;
    const redelivered = await postWithKey(
      api,
      tenant.adminKey,
      `/v1/webhooks/${webhook.id}/deliveries/${dead.id}/redeliver`,
    );
    expect(redelivered.status, JSON.stringify(redelivered.body)).toBe(201);
    expect(redelivered.body).toMatchObject({ id: dead.id, status: 'pending', attempts: 0 });
    await waitUntil(async () => endpoint.accepted().length === 1, 10_000, 'the redelivery is accepted');
    expect(endpoint.accepted()[0].data.account.id).toBe(account.body.id);
    expect((await deliveries(tenant, webhook.id)).body.data[0]).toMatchObject({
      id: dead.id,
      status: 'delivered',
      attempts: 1,
    });
  });

  it('a rotated secret: both the new and the previous one verify during the grace period', async () => {
    const tenant = await seededTenant(api, 'webhook rotation');
    const { receiver: endpoint, url } = await receiver(() => 200);
    const webhook = await subscribe(tenant, url, []);
    const rotated = await postWithKey(api, tenant.adminKey, `/v1/webhooks/${webhook.id}/rotate-secret`);
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(201);
    expect(rotated.body.secret).not.toBe(webhook.secret);
    expect(Date.parse(rotated.body.previousSecretExpiresAt)).toBeGreaterThan(Date.now() + 23 * 3_600_000);

    await postTransfers(tenant, 1);
    await waitUntil(async () => endpoint.accepted().length >= 3, 10_000, 'all events are delivered');
    for (const request of endpoint.requests) {
      const header = String(request.headers['ledger-signature']);
      expect(header.match(/v1=/g)).toHaveLength(2);
      expect(verifyLedgerSignature(header, request.body, rotated.body.secret)).toBe(true);
      expect(verifyLedgerSignature(header, request.body, webhook.secret)).toBe(true);
      expect(verifyLedgerSignature(header, request.body, 'whsec_someone_else')).toBe(false);
    }
  });

  it('subscriptions are per tenant, can be deleted, and validate their input', async () => {
    const tenant = await seededTenant(api, 'webhook owner');
    const other = await seededTenant(api, 'webhook stranger');
    const webhook = await subscribe(tenant, 'http://127.0.0.1:9/hooks', ['transaction.posted']);
    expectError(await deliveries(other, webhook.id), 404, 'NOT_FOUND');
    expectError(await api.request('DELETE', `/v1/webhooks/${webhook.id}`, { key: other.adminKey }), 404, 'NOT_FOUND');
    expectError(
      await postWithKey(api, tenant.posterKey, '/v1/webhooks', { url: 'https://example.com/', events: [] }),
      403,
      'FORBIDDEN',
    );
    expectValidationError(
      await postWithKey(api, tenant.adminKey, '/v1/webhooks', {
        url: 'https://example.com/',
        events: ['no.such.event'],
      }),
      'events.0',
    );
    expectValidationError(
      await postWithKey(api, tenant.adminKey, '/v1/webhooks', { url: 'ftp://example.com/', events: [] }),
      'url',
    );
    expectError(
      await api.request('GET', `/v1/webhooks/${randomUUID()}/deliveries`, { key: tenant.adminKey }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await api.request('GET', '/v1/webhooks/not-a-uuid/deliveries', { key: tenant.adminKey }),
      404,
      'NOT_FOUND',
    );

    expect((await api.request('DELETE', `/v1/webhooks/${webhook.id}`, { key: tenant.adminKey })).status).toBe(204);
    expect((await api.request('GET', '/v1/webhooks', { key: tenant.adminKey })).body.data).toEqual([]);
  });
});

describe('webhooks per tenant', () => {
  it('a tenant has at most LEDGER_WEBHOOK_SUBSCRIPTIONS_MAX, even when it asks for more at once', async () => {
    const tenant = await setupTenant(api, 'webhook cap');
    const attempts = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        postWithKey(api, tenant.adminKey, '/v1/webhooks', { url: `http://127.0.0.1:9/hooks/${i}`, events: [] }),
      ),
    );
    expect(attempts.map((answer) => answer.status).sort()).toEqual([201, 201, 201, 409, 409, 409]);
    const refused = attempts.find((answer) => answer.status === 409)!;
    expectError(refused, 409, 'WEBHOOK_LIMIT_REACHED');
    expect(refused.body.error.details).toEqual({ subscriptionsMax: 3 });
    const listed = await api.request('GET', '/v1/webhooks', { key: tenant.adminKey });
    expect(listed.body.data).toHaveLength(3);

    const [first] = listed.body.data;
    expect((await api.request('DELETE', `/v1/webhooks/${first.id}`, { key: tenant.adminKey })).status).toBe(204);
    await subscribe(tenant, 'http://127.0.0.1:9/hooks/again', []);
  });
});

describe('webhook targets by default', () => {
  let strict: ApiHarness;

  beforeAll(async () => {
    strict = await startApi({ poolSize: 4 });
  });

  afterAll(async () => {
    await strict.close();
  });

  it('refuses loopback, private, link-local and metadata addresses', async () => {
    const { adminKey } = await strict.createTenant('strict');
    for (const url of [
      'http://127.0.0.1:8080/hooks',
      'http://localhost/hooks',
      'http://[::1]/',
      'http://10.0.0.7/',
      'http://169.254.169.254/latest/meta-data',
      'http://2130706433/',
    ]) {
      const refused = await strict.request('POST', '/v1/webhooks', {
        key: adminKey,
        idempotencyKey: randomUUID(),
        body: { url, events: [] },
      });
      expectValidationError(refused, 'url');
    }
  });
});
