import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { deleteStream, readStream } from './support/jetstream-reader';
import {
  type TestTenant,
  createAccount,
  mustPost,
  postWithKey,
  seededTenant,
  transfer,
  walletAndShop,
} from './support/ledger-fixtures';
import { type PrivateNatsServer, SHARED_NATS_URL, startPrivateNatsServer } from './support/nats-server';
import {
  RecordingPublisher,
  natsPublisher,
  outboxIds,
  relayLoop,
  relayOf,
  testStream,
  waitUntil,
  webhookQueueLoop,
} from './support/relay-fixtures';

let api: ApiHarness;
const streams: { url: string; stream: string }[] = [];
let privateNats: PrivateNatsServer | undefined;

beforeAll(async () => {
  api = await startApi();
});

afterAll(async () => {
  for (const { url, stream } of streams) await deleteStream(url, stream).catch(() => undefined);
  await privateNats?.dispose();
  await api.close();
});

function newStream(url: string) {
  const names = testStream();
  streams.push({ url, stream: names.stream });
  return names;
}

async function postTransfers(tenant: TestTenant, count: number): Promise<void> {
  const { wallet, shop } = await walletAndShop(api, tenant);
  await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, String(count * 100)));
  for (let i = 0; i < count; i++) await mustPost(api, tenant.posterKey, transfer(wallet, shop, '100'));
}

/** Each outbox event of the tenant is in the stream exactly once, under its own id. */
async function expectStreamHoldsEachOnce(url: string, stream: string, tenant: TestTenant): Promise<void> {
  const outbox = await outboxIds(api, tenant.tenantId);
  const messages = (await readStream(url, stream)).filter((message) => message.event.tenantId === tenant.tenantId);
  const ids = messages.map((message) => message.event.id);
  expect(new Set(ids).size, 'no event twice in the stream').toBe(ids.length);
  expect(ids.sort()).toEqual(outbox.map((row) => row.id).sort());
  for (const message of messages) {
    expect(message.msgId).toBe(message.event.id);
    expect(message.subject.endsWith(`.${tenant.tenantId}.${message.event.type}`)).toBe(true);
    expect(message.event.aggregateVersion).toMatch(/^\d+$/);
  }
  expect(outbox.every((row) => row.published)).toBe(true);
}

describe('outbox relay to NATS JetStream', () => {
  it('a relay killed between publish and mark publishes again on restart; JetStream keeps each once', async () => {
    const tenant = await seededTenant(api, 'relay crash');
    await postTransfers(tenant, 8);
    const names = newStream(SHARED_NATS_URL);

    const crashing = relayOf(api, natsPublisher(SHARED_NATS_URL, names), {
      faults: {
        afterPublish: () => {
          throw new Error('relay killed after publishing, before marking');
        },
      },
    });
    await expect(crashing.execute()).rejects.toThrow('relay killed');
    const afterCrash = await outboxIds(api, tenant.tenantId);
    expect(afterCrash.length).toBeGreaterThan(8);
    expect(afterCrash.filter((row) => row.published)).toEqual([]);
    expect((await readStream(SHARED_NATS_URL, names.stream)).length, 'the crashed batch did reach the broker').toBe(
      afterCrash.length,
    );

    const restarted = relayOf(api, natsPublisher(SHARED_NATS_URL, names));
    while ((await restarted.execute()).claimed > 0);
    await expectStreamHoldsEachOnce(SHARED_NATS_URL, names.stream, tenant);
  });

  it('two relays in parallel never publish one event twice, and keep each aggregate in order', async () => {
    const tenant = await seededTenant(api, 'two relays');
    await createAccount(api, tenant.adminKey, { code: 'liabilities:held', currency: 'USD', normalBalance: 'credit' });
    const holds = [];
    for (let i = 0; i < 12; i++) {
      const hold = await mustPost(api, tenant.posterKey, {
        ...transfer('equity:seed', 'liabilities:held', '50'),
        pending: { expiresAt: new Date(Date.now() + 3_600_000).toISOString() },
      });
      holds.push(hold.id);
    }
    for (const [i, id] of holds.entries()) {
      const resolved = await postWithKey(api, tenant.posterKey, `/v1/transactions/${id}/${i % 2 ? 'void' : 'post'}`);
      expect(resolved.status, JSON.stringify(resolved.body)).toBe(201);
    }
    await postTransfers(tenant, 10);
    const names = newStream(SHARED_NATS_URL);
    const publishers = [
      new RecordingPublisher(natsPublisher(SHARED_NATS_URL, names)),
      new RecordingPublisher(natsPublisher(SHARED_NATS_URL, names)),
    ];
    const loops = publishers.map((publisher) => relayLoop(relayOf(api, publisher, { batchSizeMax: 3 })));
    for (const loop of loops) loop.start();
    await waitUntil(
      async () => (await outboxIds(api, tenant.tenantId)).every((row) => row.published),
      20_000,
      'every event is published',
    );
    await Promise.all(loops.map((loop) => loop.stop()));
    await Promise.all(publishers.map((publisher) => publisher.close()));

    const mine = (publisher: RecordingPublisher) =>
      publisher.published.filter((event) => event.tenantId === tenant.tenantId);
    const all = [...mine(publishers[0]!), ...mine(publishers[1]!)];
    expect(mine(publishers[0]!).length, 'both relays took a share').toBeGreaterThan(0);
    expect(mine(publishers[1]!).length, 'both relays took a share').toBeGreaterThan(0);
    expect(new Set(all.map((event) => event.id)).size, 'no event published by both').toBe(all.length);
    await expectStreamHoldsEachOnce(SHARED_NATS_URL, names.stream, tenant);

    // In stream order, each hold's resolution (version 2) comes after the hold (version 1).
    const stream = (await readStream(SHARED_NATS_URL, names.stream)).map((message) => message.event);
    for (const holdId of holds) {
      const versions = stream.filter((event) => event.aggregateId === holdId).map((event) => event.aggregateVersion);
      expect(versions).toEqual(['1', '2']);
    }
  });

  it('NATS stopped while posting: posting goes on, webhooks still queue, each event arrives once later', async () => {
    privateNats = await startPrivateNatsServer();
    const tenant = await seededTenant(api, 'nats outage');
    // A subscription to every event type; nothing is sent to it here (no delivery loop runs), its queue is
    // what is watched.
    const hook = await postWithKey(api, tenant.adminKey, '/v1/webhooks', {
      url: 'https://1.1.1.1/ledger-hook',
      events: [],
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const queuedDeliveries = async () =>
      (
        await api.db.database.sql.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = $1 AND subscription_id = $2',
          [tenant.tenantId, hook.body.id],
        )
      )[0]!.n;
    const { wallet, shop } = await walletAndShop(api, tenant);
    await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, '100000'));
    const names = newStream(privateNats.url);
    const publisher = natsPublisher(privateNats.url, names);
    const loop = relayLoop(relayOf(api, publisher, { batchSizeMax: 5 }));
    const webhookQueue = webhookQueueLoop(api);
    loop.start();
    webhookQueue.start();
    try {
      const statuses: number[] = [];
      const posting = (async () => {
        for (let i = 0; i < 30; i++) {
          statuses.push(
            (await postWithKey(api, tenant.posterKey, '/v1/transactions', transfer(wallet, shop, '10'))).status,
          );
          await sleep(20);
        }
      })();
      await waitUntil(async () => statuses.length >= 8, 10_000, 'some postings went through');
      await privateNats.stop();
      await posting;
      expect(statuses, 'posting never waits for the broker').toEqual(Array(30).fill(201));
      await sleep(300);
      expect(
        (await outboxIds(api, tenant.tenantId)).some((row) => !row.published),
        'events wait while NATS is down',
      ).toBe(true);
      // The webhook queue does not wait for the broker: every event of the tenant gets its delivery.
      const events = (await outboxIds(api, tenant.tenantId)).length;
      await waitUntil(
        async () => (await queuedDeliveries()) === events,
        10_000,
        'every event has its webhook delivery while NATS is down',
      );
      expect(
        (await outboxIds(api, tenant.tenantId)).some((row) => !row.published),
        'NATS is still down',
      ).toBe(true);

      await privateNats.start();
      await waitUntil(
        async () => (await outboxIds(api, tenant.tenantId)).every((row) => row.published),
        20_000,
        'every event is published after NATS is back',
      );
    } finally {
      await loop.stop();
      await webhookQueue.stop();
      await publisher.close();
    }
    await expectStreamHoldsEachOnce(privateNats.url, names.stream, tenant);
    expect(await queuedDeliveries(), 'one delivery per event, none twice').toBe(
      (await outboxIds(api, tenant.tenantId)).length,
    );
  });
});
