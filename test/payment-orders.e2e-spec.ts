import { randomUUID } from 'node:crypto';
import { AdvancePaymentOrdersUseCase } from '@ledger/payments';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningProviderSim } from '../apps/provider-sim/src/server';
import { type ApiHarness, startApi } from './support/api-harness';
import { expectError, getAccount, readEventFeed, setupTenant, sqlRows } from './support/ledger-fixtures';
import {
  type PaymentTenant,
  createOrder,
  driveUntil,
  driveUntilStep,
  orderBody,
  paymentTenant,
  sendSimWebhooksTo,
  setSimFaults,
  simExecutions,
  startSim,
} from './support/payment-fixtures';

let api: ApiHarness;
let sim: RunningProviderSim;
beforeAll(async () => {
  [api, sim] = await Promise.all([startApi(), startSim()]);
});
afterAll(async () => {
  await Promise.all([api?.close(), sim?.close()]);
});

async function balances(tenant: PaymentTenant) {
  const [wallet, clearing] = await Promise.all([
    getAccount(api, tenant.posterKey, tenant.wallet),
    getAccount(api, tenant.posterKey, tenant.clearing),
  ]);
  return { wallet: wallet.balances, clearing: clearing.balances };
}

describe('payment orders through the provider simulator', () => {
  let tenant: PaymentTenant;
  beforeAll(async () => {
    tenant = await paymentTenant(api, sim, '100000');
  });

  it('reserves at once, then submits with the derived key and settles on the provider’s answer', async () => {
    await setSimFaults(sim, {});
    const order = await createOrder(api, tenant, orderBody(tenant, '2500', { externalRef: 'withdrawal-1' }));
    expect(order).toMatchObject({ status: 'reserved', amount: '2500', currency: 'EUR', stuck: false });
    expect(order.steps.map((step: any) => [step.step, step.outcome, step.status])).toEqual([
      ['reserve', 'done', 'reserved'],
    ]);
    expect((await balances(tenant)).wallet).toMatchObject({ posted: '100000', available: '97500' });

    const settled = await driveUntil(api, tenant, order.id, ['settled']);
    expect(settled.steps.map((step: any) => step.status)).toEqual(['reserved', 'submitting', 'submitted', 'settled']);
    expect(settled).toMatchObject({ provider: { status: 'executed' }, deadlineAt: null, nextAttemptAt: null });
    expect((await balances(tenant)).wallet).toMatchObject({ posted: '97500', available: '97500' });
    expect((await balances(tenant)).clearing).toMatchObject({ posted: '-2500' });
    expect((await simExecutions(sim))[`${order.id}:submit`]).toBe(1);

    const { events } = await readEventFeed(api, tenant.posterKey, {
      ready: (all) => all.some((event) => event.type === 'payment_order.settled' && event.aggregateId === order.id),
    });
    expect(events.filter((event) => event.aggregateId === order.id).map((event) => event.type)).toEqual([
      'payment_order.reserved',
      'payment_order.submitting',
      'payment_order.submitted',
      'payment_order.settled',
    ]);
  });

  it('refuses an order the source cannot cover, with nothing stored', async () => {
    const refused = await api.request('POST', '/v1/payment-orders', {
      key: tenant.posterKey,
      idempotencyKey: randomUUID(),
      body: orderBody(tenant, '99999999'),
    });
    expectError(refused, 422, 'INSUFFICIENT_FUNDS');
    const rows = await sqlRows<{ n: number }>(
      api,
      'SELECT count(*)::int AS n FROM payment_orders WHERE tenant_id = $1 AND amount_minor = 99999999',
      [tenant.tenantId],
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('answers an order with a taken externalRef 409, naming the first', async () => {
    const first = await createOrder(api, tenant, orderBody(tenant, '10', { externalRef: 'dup-ref' }));
    const again = await api.request('POST', '/v1/payment-orders', {
      key: tenant.posterKey,
      idempotencyKey: randomUUID(),
      body: orderBody(tenant, '10', { externalRef: 'dup-ref' }),
    });
    expectError(again, 409, 'EXTERNAL_REF_CONFLICT');
    expect(again.body.error.details.paymentOrderId).toBe(first.id);
    await driveUntil(api, tenant, first.id, ['settled']);
  });

  it('cancels before the pivot (the hold is voided), and refuses to cancel after it', async () => {
    const before = (await balances(tenant)).wallet;
    const order = await createOrder(api, tenant, orderBody(tenant, '700'));
    const cancelled = await api.request('POST', `/v1/payment-orders/${order.id}/cancel`, {
      key: tenant.posterKey,
      idempotencyKey: randomUUID(),
      body: {},
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    expect((await balances(tenant)).wallet).toEqual(before);
    expect(await driveUntil(api, tenant, order.id, ['cancelled'])).toMatchObject({ status: 'cancelled' });
    expect((await simExecutions(sim))[`${order.id}:submit`]).toBeUndefined();

    const sent = await createOrder(api, tenant, orderBody(tenant, '800'));
    await driveUntil(api, tenant, sent.id, ['settled']);
    const late = await api.request('POST', `/v1/payment-orders/${sent.id}/cancel`, {
      key: tenant.posterKey,
      idempotencyKey: randomUUID(),
      body: {},
    });
    expectError(late, 409, 'PAYMENT_ORDER_NOT_CANCELLABLE');
    expect(late.body.error.details).toEqual({ status: 'settled' });
  });

  it('voids the hold when the provider refuses the payment for good', async () => {
    await setSimFaults(sim, { reject: 1 });
    const before = (await balances(tenant)).wallet;
    const order = await createOrder(api, tenant, orderBody(tenant, '900'));
    const rejected = await driveUntil(api, tenant, order.id, ['rejected', 'settled']);
    await setSimFaults(sim, {});
    expect(rejected.status).toBe('rejected');
    expect(rejected.lastError).toEqual(expect.any(String));
    expect((await balances(tenant)).wallet).toEqual(before);
    expect((await simExecutions(sim))[`${order.id}:submit`]).toBeUndefined();
  });

  it('treats a timeout after the provider executed as unknown, asks by the key and settles once', async () => {
    await setSimFaults(sim, { timeout_after_execute: 1 });
    const order = await createOrder(api, tenant, orderBody(tenant, '1100'));
    // The call timed out after the provider executed: the order stays submitting, its step unknown.
    const unknown = await driveUntilStep(api, tenant, order.id, 'unknown');
    expect(unknown.status).toBe('submitting');
    await setSimFaults(sim, {});
    const settled = await driveUntil(api, tenant, order.id, ['settled']);
    expect(settled.steps.map((step: any) => `${step.step}:${step.outcome}`)).toEqual(
      expect.arrayContaining(['submit:unknown', 'settle:done']),
    );
    expect((await simExecutions(sim))[`${order.id}:submit`]).toBe(1);
  });

  it('retries a 503 from before execution by the same key: executed once', async () => {
    await setSimFaults(sim, { error_before_execute: 1 });
    const order = await createOrder(api, tenant, orderBody(tenant, '1200'));
    const unknown = await driveUntilStep(api, tenant, order.id, 'unknown');
    expect(unknown.lastError).toEqual(expect.any(String));
    expect((await simExecutions(sim))[`${order.id}:submit`]).toBeUndefined();
    await setSimFaults(sim, {});
    await driveUntil(api, tenant, order.id, ['settled']);
    expect((await simExecutions(sim))[`${order.id}:submit`]).toBe(1);
  });

  it('books a return from a signed webhook as a reversing transaction', async () => {
    await sendSimWebhooksTo(sim, api, tenant.connector);
    await setSimFaults(sim, { return: 1 });
    const before = (await balances(tenant)).wallet;
    const order = await createOrder(api, tenant, orderBody(tenant, '1300'));
    const returned = await driveUntil(api, tenant, order.id, ['returned']);
    await setSimFaults(sim, {});
    expect(returned.returnTransactionId).toEqual(expect.any(String));
    expect(returned.steps.at(-1)).toMatchObject({ step: 'return', status: 'returned' });
    expect((await balances(tenant)).wallet).toEqual(before);
    const reversal = await api.request('GET', `/v1/transactions/${returned.returnTransactionId}`, {
      key: tenant.posterKey,
    });
    expect(reversal.body).toMatchObject({
      reversesId: returned.settleTransactionId,
      externalRef: `${order.id}:return`,
    });
  });

  it('refuses a webhook whose signature does not verify', async () => {
    const body = JSON.stringify({ id: 'evt-1', type: 'payment.executed', payment: {} });
    const forged = await fetch(`${api.baseUrl}${tenant.connector.webhookEndpoint}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'provider-signature': 't=1,v1=00' },
      body,
    });
    expect(forged.status).toBe(401);
  });

  it("hides another tenant's orders", async () => {
    const order = await createOrder(api, tenant, orderBody(tenant, '5'));
    const other = await setupTenant(api, 'other');
    const read = await api.request('GET', `/v1/payment-orders/${order.id}`, { key: other.posterKey });
    expectError(read, 404, 'NOT_FOUND');
    await driveUntil(api, tenant, order.id, ['settled']);
  });

  it('still books what the provider paid when the hold was voided by hand meanwhile', async () => {
    const slow = await startSim('', { PROVIDER_SIM_EXECUTE_DELAY_MS: '300' });
    try {
      const slowTenant = await paymentTenant(api, slow, '10000');
      const order = await createOrder(api, slowTenant, orderBody(slowTenant, '3000'));
      const submitted = await driveUntil(api, slowTenant, order.id, ['submitted', 'settled']);
      expect(submitted).toMatchObject({ status: 'submitted', provider: { status: 'pending' } });
      const voided = await api.request('POST', `/v1/transactions/${order.holdId}/void`, {
        key: slowTenant.posterKey,
        idempotencyKey: randomUUID(),
        body: {},
      });
      expect(voided.status, JSON.stringify(voided.body)).toBe(201);
      const settled = await driveUntil(api, slowTenant, order.id, ['settled']);
      const posting = await api.request('GET', `/v1/transactions/${settled.settleTransactionId}`, {
        key: slowTenant.posterKey,
      });
      expect(posting.body).toMatchObject({ status: 'posted', externalRef: order.id, holdId: null });
      const wallet = await getAccount(api, slowTenant.posterKey, slowTenant.wallet);
      expect(wallet.balances).toMatchObject({ posted: '7000', pending: '0', available: '7000' });
    } finally {
      await slow.close();
    }
  });

  it('sends each order once when workers race for the due orders', async () => {
    await setSimFaults(sim, {});
    const orders = await Promise.all(
      Array.from({ length: 40 }, (_, index) => createOrder(api, tenant, orderBody(tenant, String(100 + index)))),
    );
    const advance = api.app.get(AdvancePaymentOrdersUseCase);
    // Four passes at a time, as four workers would claim: SKIP LOCKED and the lease keep them apart.
    for (let round = 0; round < 20; round++) {
      await Promise.all([advance.execute(), advance.execute(), advance.execute(), advance.execute()]);
    }
    const executions = await simExecutions(sim);
    for (const order of orders) {
      const read = await driveUntil(api, tenant, order.id, ['settled']);
      // Sent once: one decision to submit, one execution at the provider. On a loaded machine a call may
      // outlive its timeout; that unknown outcome is asked about by the same key afterwards, as designed.
      const decisions = read.steps.filter((step: any) => step.step === 'submit' && step.outcome === 'pending');
      expect(decisions, JSON.stringify(read.steps)).toHaveLength(1);
      expect(executions[`${order.id}:submit`] ?? (await simExecutions(sim))[`${order.id}:submit`]).toBe(1);
    }
  });
});
