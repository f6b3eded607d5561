import { QueueWebhookDeliveriesUseCase, WebhookRepository } from '@ledger/outbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { mustPost, postWithKey, seededTenant, transfer, walletAndShop } from './support/ledger-fixtures';
import { waitUntil } from './support/relay-fixtures';

// No worker here: the test takes the leases itself, two at once, as two workers would.
let api: ApiHarness;

beforeAll(async () => {
  api = await startApi({ settings: { LEDGER_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
});

afterAll(async () => {
  await api.close();
});

const LEASE = {
  limit: 20,
  leaseMs: 60_000,
  subscriptionConcurrencyMax: 1,
  tenantConcurrencyMax: 2,
  breakerFailures: 5,
};

describe('webhook leases', () => {
  it('a lease taken while another is in progress sees it, so together they keep to the tenant cap', async () => {
    const tenant = await seededTenant(api, 'two leases');
    for (let i = 0; i < 3; i++) {
      const created = await postWithKey(api, tenant.adminKey, '/v1/webhooks', {
        url: `http://127.0.0.1:9/hooks/${i}`,
        events: ['transaction.posted'],
      });
      expect(created.status).toBe(201);
    }
    const { wallet } = await walletAndShop(api, tenant);
    await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, '1000'));
    await api.app.get(QueueWebhookDeliveriesUseCase).execute();

    const database = api.db.database;
    const webhooks = new WebhookRepository(database);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let first: unknown[] | undefined;
    // The first lease's transaction stays open (as if its commit were slow) while a second lease starts.
    const firstDone = database.transaction('read committed', async () => {
      first = await webhooks.leaseDue(LEASE);
      await held;
    });
    await waitUntil(async () => first !== undefined, 10_000, 'the first lease is taken');
    let secondTaken = false;
    const second = webhooks.leaseDue(LEASE).then((rows) => {
      secondTaken = true;
      return rows;
    });
    // Until the second lease has either finished or is queued behind the first one's lock.
    const waitingForLock = async () =>
      (
        await database.sql.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted" +
            ' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())',
        )
      )[0]!.n > 0;
    await waitUntil(async () => secondTaken || (await waitingForLock()), 10_000, 'the second lease has run or waits');
    expect(secondTaken, 'the second lease waits for the first to commit').toBe(false);
    release();
    await firstDone;
    expect(first).toHaveLength(2);
    expect(await second, 'nothing more: the tenant has 2 in flight').toHaveLength(0);
  });
});
