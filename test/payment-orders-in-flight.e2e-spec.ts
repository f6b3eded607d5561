import type { INestApplicationContext } from '@nestjs/common';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningProviderSim } from '../apps/provider-sim/src/server';
import { type ApiHarness, startApi } from './support/api-harness';
import { createOrder, getOrder, orderBody, paymentTenant, startSim } from './support/payment-fixtures';
import { waitUntil } from './support/relay-fixtures';
import { Tarpit } from './support/tarpit';
import { startWorker } from './support/worker-harness';

// The worker's saga keeps several orders in flight, each freeing its slot when its step is written: a
// provider call that hangs until its timeout holds its own order, not the others behind it.

/** Longer than the test and its waits: the hanging call is still unanswered when they end. */
const SLOW_PROVIDER_TIMEOUT_MS = 120_000;

let api: ApiHarness;
let sim: RunningProviderSim;
let worker: INestApplicationContext;
const tarpit = new Tarpit();

beforeAll(async () => {
  [api, sim] = await Promise.all([startApi(), startSim()]);
  worker = await startWorker(api);
});

afterAll(async () => {
  // The tarpit first: its dropped connection ends the hanging call, which the worker's shutdown waits for.
  await tarpit.stop();
  await worker?.close();
  await Promise.all([api?.close(), sim?.close()]);
});

it('settles other orders while one order’s provider call hangs', async () => {
  const slow = await paymentTenant(api, sim, '100000', {
    baseUrl: await tarpit.start(),
    requestTimeoutMs: SLOW_PROVIDER_TIMEOUT_MS,
  });
  const fast = await paymentTenant(api, sim, '100000');
  const stuck = await createOrder(api, slow, orderBody(slow, '100'));
  await waitUntil(async () => tarpit.waiting() === 1, 30_000, 'the slow provider holds the submit');

  const orders = await Promise.all(
    Array.from({ length: 5 }, (_, index) => createOrder(api, fast, orderBody(fast, String(200 + index)))),
  );
  const statuses = async () => Promise.all(orders.map(async (order) => (await getOrder(api, fast, order.id)).status));
  await waitUntil(
    async () => (await statuses()).every((status) => status === 'settled'),
    60_000,
    'the other orders settle',
    { diagnose: statuses },
  );

  expect(tarpit.waiting(), 'the slow call is still unanswered').toBe(1);
  expect((await getOrder(api, slow, stuck.id)).status).toBe('submitting');
}, 100_000);
