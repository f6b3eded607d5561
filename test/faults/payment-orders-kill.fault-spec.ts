import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningProviderSim } from '../../apps/provider-sim/src/server';
import { type PrivateNatsServer, startPrivateNatsServer } from '../support/nats-server';
import { getAccount } from '../support/ledger-fixtures';
import { type PaymentTenant, paymentTenant, sendSimWebhooksTo, startSim } from '../support/payment-fixtures';
import { auditBooks, expectBooksWhole } from './support/books-audit';
import { auditEvents, expectEventsDelivered } from './support/event-audit';
import { recordFigures } from './support/fault-report';
import { FAULT_SETTINGS } from './support/fault-settings';
import { carryOutKills, planKills } from './support/kill-schedule';
import { LedgerStack } from './support/ledger-stack';
import {
  auditHolds,
  auditProvider,
  auditStateEvents,
  statusCounts,
  waitForOrdersAtRest,
  waitForSimQuiet,
} from './support/payment-audit';
import { PaymentOrderLoad, planOrders } from './support/payment-order-load';
import { SHARED_ADMIN_DATABASE_URL } from './support/shared-postgres';
import { FAULT_SEED, SeededRandom } from './support/seeded-random';

const STREAM = 'FAULTS_PAYMENTS';
/** Every fault of the simulator at once. */
const SIM_FAULTS = 'timeout_after_execute=0.15,error_before_execute=0.1,reject=0.05,return=0.05,latency_ms=20';
/** Short, so that a withheld answer turns into an unknown outcome soon (and a claim's lease is 6 s). */
const REQUEST_TIMEOUT_MS = 500;
const WALLET_FUNDS_MINOR = 10_000_000_000n;
/** Kills after the last order was created, while the saga works through them. */
const TAIL_KILLS = 2;
const TAIL_MS = 8_000;
/** The orders are spread over this share of the kill window, so that kills fall among them and after. */
const ORDERS_SPREAD_SHARE = 0.7;
/** Bounds, not thresholds: an unknown outcome is asked about again after a backoff that grows. */
const AT_REST_WAIT_MAX_MS = 120_000;
const SIM_QUIET_WAIT_MAX_MS = 60_000;

let nats: PrivateNatsServer;
let stack: LedgerStack;
let sim: RunningProviderSim;

const random = new SeededRandom(FAULT_SEED, 'payment-orders-kill');

beforeAll(async () => {
  nats = await startPrivateNatsServer();
  stack = await LedgerStack.create({
    adminDatabaseUrl: SHARED_ADMIN_DATABASE_URL,
    natsUrl: nats.url,
    natsStream: STREAM,
  });
  // In this process: it outlives every kill, as a real provider outlives our crashes.
  sim = await startSim(SIM_FAULTS, { PROVIDER_SIM_SEED: String(random.between(1, 2 ** 31)) });
  await stack.startApi();
  await stack.startWorker();
});

afterAll(async () => {
  await stack?.dispose();
  await Promise.all([sim?.close(), nats?.dispose()]);
});

describe('kill -9 of the API and the worker while payment orders go through a faulty provider', () => {
  it('executes each order at most once, ends each one at rest with its events, and keeps the books whole', async () => {
    console.log(`payment orders kill: seed ${FAULT_SEED}`);
    // Generous deadlines (the defaults: 15 min to submit, 3 days to settle): no order may end up stuck.
    const tenant: PaymentTenant = await paymentTenant(stack, sim, String(WALLET_FUNDS_MINOR), {
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
    });
    await sendSimWebhooksTo(sim, stack, tenant.connector);
    const orders = planOrders(random, tenant, FAULT_SETTINGS.paymentOrders);
    const windowMs = FAULT_SETTINGS.loadSeconds * 1000;
    const plan = planKills(random, FAULT_SETTINGS.kills * 2, windowMs);
    const tailPlan = planKills(random, TAIL_KILLS, TAIL_MS);

    const load = new PaymentOrderLoad(stack, tenant.posterKey);
    const startedAt = Date.now();
    const [kills] = await Promise.all([
      carryOutKills(stack, plan, startedAt),
      load.run(orders, FAULT_SETTINGS.clients, windowMs * ORDERS_SPREAD_SHARE),
    ]);
    const ordersCreatedMs = Date.now() - startedAt;
    const tailKills = await carryOutKills(stack, tailPlan, Date.now());
    expect(load.unanswered, 'every request is answered in the end').toEqual([]);

    const atRest = await waitForOrdersAtRest(stack, tenant.tenantId, AT_REST_WAIT_MAX_MS);
    const webhooks = await waitForSimQuiet(sim, SIM_QUIET_WAIT_MAX_MS);
    const statuses = await waitForOrdersAtRest(stack, tenant.tenantId, AT_REST_WAIT_MAX_MS);
    const provider = await auditProvider(stack, tenant.tenantId, sim);
    const stateEvents = await auditStateEvents(stack, tenant.tenantId);
    const holds = await auditHolds(stack, tenant.tenantId, provider.orders);
    const wallet = (await getAccount(stack, tenant.posterKey, tenant.wallet)).balances;
    const stuck = await stack.request('GET', '/v1/payment-orders?stuck=true&limit=10', { key: tenant.posterKey });
    const books = await auditBooks(stack, tenant.tenantId, holds.transactionIds, [tenant.fundingTransactionId]);
    const events = await auditEvents(stack, tenant.tenantId, nats.url, STREAM);

    await recordFigures('payment-orders-kill', {
      headline:
        `orders ${load.created.length}: ${JSON.stringify(countsOnly(statuses))}; executions ${provider.executions} ` +
        `(twice ${provider.executedTwice.length}); unknown outcomes ${stateEvents.outcomes['submit:unknown'] ?? 0}` +
        `+${stateEvents.outcomes['status:unknown'] ?? 0}; webhooks delivered ${webhooks.delivered}; ` +
        `kills api ${stack.kills.api}, worker ${stack.kills.worker}`,
      orders: { planned: orders.length, created: load.created.length, cancels: load.cancels, ordersCreatedMs },
      statuses,
      statusesFirstAtRest: atRest,
      kills: [...kills, ...tailKills.map((kill) => ({ ...kill, tail: true }))],
      executions: provider.executions,
      providerPayments: provider.providerPayments,
      unknownOutcomes: (stateEvents.outcomes['submit:unknown'] ?? 0) + (stateEvents.outcomes['status:unknown'] ?? 0),
      resubmitsAfterNotFound: stateEvents.outcomes['status:not_found'] ?? 0,
      stepOutcomes: stateEvents.outcomes,
      webhooks,
      wallet,
      paidOutMinor: provider.paidOutMinor.toString(),
      requestsSent: load.sent,
      retried: load.retried,
      answers: Object.fromEntries([...load.seen].sort()),
      books: { ...books, journalVerify: books.journalVerify.exitCode },
      events,
    });

    expect(kills.map((kill) => kill.target).sort()).toEqual(plan.map((kill) => kill.target).sort());
    expect(load.refused, 'no order or cancel was refused').toEqual([]);
    expect(load.internalErrors, 'no 500 answer').toEqual([]);
    expect(provider.orders.map((order) => order.id).sort(), 'the orders are the ones created, once each').toEqual(
      load.created.map((order) => order.id).sort(),
    );
    // (1) at most once at the provider; exactly once for what the ledger paid, never for the rest.
    expect(provider.executedTwice, 'no key executed twice').toEqual([]);
    expect(provider.executionsNotFitting).toEqual([]);
    expect(provider.providerDisagrees, 'the ledger agrees with the provider on every order').toEqual([]);
    expect(provider.foreign).toEqual([]);
    expect(provider.paymentsListed, 'every payment of the simulator was listed').toBe(provider.paymentsTotal);
    // (2) every order at rest; with the generous deadlines none is stuck, and no ticket says otherwise.
    expect(Object.values(statuses).reduce((sum, count) => sum + count.stuck, 0)).toBe(0);
    expect(stuck.body.data, 'no stuck order is listed').toEqual([]);
    // (3) the wallet paid exactly what the provider executed and kept; no hold is left open.
    expect(wallet.posted).toBe((WALLET_FUNDS_MINOR - provider.paidOutMinor).toString());
    expect(wallet.pending).toBe('0');
    expect(holds.wrongResolutions, 'each hold resolved once, as the order’s state says').toEqual([]);
    // (4) one event per change of state, in order, none twice, none without a change.
    expect(stateEvents.mismatches).toEqual([]);
    expect(stateEvents.strayEvents).toEqual([]);
    expect(stateEvents.events).toBe(stateEvents.stateChanges);
    expectEventsDelivered(events);
    // (5) the books.
    expectBooksWhole(books, ['EUR']);
    expect(webhooks.abandoned + webhooks.dropped, 'every webhook was delivered').toBe(0);
    expect(await statusCounts(stack, tenant.tenantId)).toEqual(statuses);
  });
});

function countsOnly(statuses: Record<string, { n: number }>): Record<string, number> {
  return Object.fromEntries(Object.entries(statuses).map(([status, count]) => [status, count.n]));
}
