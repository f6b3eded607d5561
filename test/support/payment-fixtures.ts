import { randomUUID } from 'node:crypto';
import { AdvancePaymentOrdersUseCase } from '@ledger/payments';
import { expect } from 'vitest';
import { type RunningProviderSim, startProviderSim } from '../../apps/provider-sim/src/server';
import { loadSimSettings } from '../../apps/provider-sim/src/sim-settings';
import type { ApiHarness } from './api-harness';
import { type LedgerClient, type TestTenant, createAccount, mustPost, setupTenant, transfer } from './ledger-fixtures';

/**
 * What the helpers need of an API besides driving the saga (driveUntil runs it in the harness's own
 * process): the fault suite's built processes serve too.
 */
export type PaymentApi = LedgerClient & Pick<ApiHarness, 'baseUrl'>;

export const SIM_SECRET = 'sim_secret_test';
export const SIM_WEBHOOK_SECRET = 'sim_webhook_test';

/** The provider simulator in this process, on a free port, with these faults (PROVIDER_SIM_FAULTS syntax). */
export function startSim(faults = '', settings: Record<string, string> = {}): Promise<RunningProviderSim> {
  return startProviderSim(
    loadSimSettings({
      PROVIDER_SIM_PORT: '0',
      PROVIDER_SIM_SECRET: SIM_SECRET,
      PROVIDER_SIM_WEBHOOK_SECRET: SIM_WEBHOOK_SECRET,
      PROVIDER_SIM_FAULTS: faults,
      ...settings,
    }),
    () => {},
  );
}

async function simRequest(sim: RunningProviderSim, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${sim.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  return response.json();
}

/** Times the simulator executed each idempotency key. */
export async function simExecutions(sim: RunningProviderSim): Promise<Record<string, number>> {
  return (await simRequest(sim, 'GET', '/__sim/executions')).executions;
}

/** The simulator's payments as GET /__sim/payments lists them (at most `limit`, and how many it has). */
export async function simPayments(sim: RunningProviderSim, limit: number): Promise<{ total: number; payments: any[] }> {
  return simRequest(sim, 'GET', `/__sim/payments?limit=${limit}`);
}

/** The simulator's webhook deliveries: pending, delivered, failed attempts, abandoned, dropped. */
export async function simWebhookStats(sim: RunningProviderSim): Promise<Record<string, number>> {
  return simRequest(sim, 'GET', '/__sim/webhooks');
}

/** Replaces the simulator's faults: every one not named is off (`{}` turns them all off). */
export async function setSimFaults(sim: RunningProviderSim, faults: Record<string, number>): Promise<void> {
  await simRequest(sim, 'PUT', '/__sim/faults', faults);
}

/** Points the simulator's webhooks at a connector's endpoint on this API. */
export async function sendSimWebhooksTo(sim: RunningProviderSim, api: PaymentApi, connector: any): Promise<void> {
  await simRequest(sim, 'PUT', '/__sim/webhook-url', {
    url: `${api.baseUrl}${connector.webhookEndpoint}`,
    secret: SIM_WEBHOOK_SECRET,
  });
}

export interface PaymentTenant extends TestTenant {
  wallet: string;
  clearing: string;
  connector: any;
  /** The wallet's funding: the one transaction of the tenant that no order made. */
  fundingTransactionId: string;
}

/**
 * A tenant with a EUR wallet funded with `funds`, a clearing account at the provider (an asset: it goes
 * below zero as the provider pays out for us) and the simulator registered as its connector.
 */
export async function paymentTenant(
  api: PaymentApi,
  sim: RunningProviderSim,
  funds: string,
  connector: Record<string, unknown> = {},
): Promise<PaymentTenant> {
  const tenant = await setupTenant(api, 'payments');
  const wallet = 'liabilities:wallets:alice';
  const clearing = 'assets:clearing:provider-sim';
  for (const body of [
    { code: 'equity:seed', currency: 'EUR', normalBalance: 'credit', allowNegative: true },
    { code: wallet, currency: 'EUR', normalBalance: 'credit' },
    { code: clearing, currency: 'EUR', normalBalance: 'debit', allowNegative: true },
  ] as const) {
    await createAccount(api, tenant.adminKey, body);
  }
  const funding = await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, funds, 'EUR'));
  const registered = await api.request('POST', '/v1/connectors', {
    key: tenant.adminKey,
    idempotencyKey: randomUUID(),
    body: {
      name: 'provider-sim',
      kind: 'http',
      baseUrl: sim.url,
      secret: SIM_SECRET,
      webhookSecret: SIM_WEBHOOK_SECRET,
      clearingAccount: clearing,
      requestTimeoutMs: 1_000,
      ...connector,
    },
  });
  expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  return { ...tenant, wallet, clearing, connector: registered.body, fundingTransactionId: funding.id };
}

export function orderBody(tenant: PaymentTenant, amount: string, extra: Record<string, unknown> = {}) {
  return {
    connector: 'provider-sim',
    direction: 'payout',
    sourceAccount: tenant.wallet,
    amount,
    currency: 'EUR',
    counterparty: { name: 'Alice Martin', iban: 'DE89370400440532013000' },
    ...extra,
  };
}

export async function createOrder(api: PaymentApi, tenant: PaymentTenant, body: unknown): Promise<any> {
  const created = await api.request('POST', '/v1/payment-orders', {
    key: tenant.posterKey,
    idempotencyKey: randomUUID(),
    body,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  return created.body;
}

export async function getOrder(api: PaymentApi, tenant: TestTenant, id: string): Promise<any> {
  const read = await api.request('GET', `/v1/payment-orders/${id}`, { key: tenant.posterKey });
  expect(read.status, JSON.stringify(read.body)).toBe(200);
  return read.body;
}

/** A bound, not a threshold: the backoff after an unknown outcome starts at half a second and grows. */
const DRIVE_WAIT_MAX_MS = 60_000;

/**
 * What the worker's saga loop does, here in the test's process: passes over the due orders until the
 * order is in one of `statuses` (or the bound passes, which fails the test with the order's timeline).
 */
export async function driveUntil(
  api: ApiHarness,
  tenant: TestTenant,
  id: string,
  statuses: readonly string[],
): Promise<any> {
  const advance = api.app.get(AdvancePaymentOrdersUseCase);
  const deadline = Date.now() + DRIVE_WAIT_MAX_MS;
  for (;;) {
    const worked = await advance.execute();
    const order = await getOrder(api, tenant, id);
    if (statuses.includes(order.status)) return order;
    if (Date.now() > deadline) throw new Error(`order still ${order.status}: ${JSON.stringify(order.steps)}`);
    if (worked === 0) await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Passes over the due orders until the order has a step with this outcome (within a bound of passes). */
export async function driveUntilStep(api: ApiHarness, tenant: TestTenant, id: string, outcome: string): Promise<any> {
  const advance = api.app.get(AdvancePaymentOrdersUseCase);
  for (let pass = 0; pass < 400; pass++) {
    await advance.execute();
    const order = await getOrder(api, tenant, id);
    if (order.steps.some((step: any) => step.outcome === outcome)) return order;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`order ${id} never had a step ${outcome}`);
}
