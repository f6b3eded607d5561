import { randomUUID } from 'node:crypto';
import { SETTLEMENT_REPORT_FORMAT } from '@ledger/payments';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningProviderSim } from '../apps/provider-sim/src/server';
import { type ApiHarness, startApi } from './support/api-harness';
import {
  type PaymentTenant,
  SIM_SECRET,
  createOrder,
  driveUntil,
  driveUntilStep,
  getOrder,
  orderBody,
  paymentTenant,
  sendSimWebhooksTo,
  setSimFaults,
  startSim,
} from './support/payment-fixtures';
import {
  createSource,
  financeKey,
  listTickets,
  routeOwner,
  runReconciliation,
  statementDay,
  uploadStatement,
} from './support/reconciliation-fixtures';

// The loop closed: an order stuck past its deadline is a ticket with an owner, gone once the order
// moves on; the provider's settlement report imports as a statement of the clearing account and each
// of its lines matches an order's settling or returning posting by the order id.

let api: ApiHarness;
let sim: RunningProviderSim;
beforeAll(async () => {
  [api, sim] = await Promise.all([startApi(), startSim()]);
});
afterAll(async () => {
  await Promise.all([api?.close(), sim?.close()]);
});

async function report(): Promise<string> {
  const range = `from=${statementDay(-1)}&to=${statementDay(1)}`;
  const response = await fetch(`${sim.url}/v1/reports/settlement?${range}`, {
    headers: { authorization: `Bearer ${SIM_SECRET}` },
  });
  expect(response.status).toBe(200);
  return response.text();
}

describe('payment orders and reconciliation', () => {
  let tenant: PaymentTenant;
  let finance: string;
  beforeAll(async () => {
    tenant = await paymentTenant(api, sim, '500000', { submitDeadlineSeconds: 1 });
    finance = await financeKey(api, tenant);
    await routeOwner(api, finance, { priority: 1, owner: 'payments-ops', kind: 'stuck_payment_order' });
    await sendSimWebhooksTo(sim, api, tenant.connector);
  });

  it('opens a stuck_payment_order ticket, with its steps as evidence and an owner, and resolves it', async () => {
    await setSimFaults(sim, { error_before_execute: 1 });
    const order = await createOrder(api, tenant, orderBody(tenant, '4200'));
    await driveUntilStep(api, tenant, order.id, 'unknown');
    // Past the one-second deadline of its submit step, still without a definite answer.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await getOrder(api, tenant, order.id)).toMatchObject({ status: 'submitting', stuck: true });
    const stuckList = await api.request('GET', '/v1/payment-orders?stuck=true', { key: tenant.posterKey });
    expect(stuckList.body.data.map((listed: any) => listed.id)).toEqual([order.id]);

    await runReconciliation(api, finance);
    const [ticket, ...others] = await listTickets(api, finance, '&kind=stuck_payment_order');
    expect(others).toEqual([]);
    expect(ticket).toMatchObject({
      status: 'open',
      owner: 'payments-ops',
      amount: '4200',
      currency: 'EUR',
      accountCode: tenant.wallet,
    });
    expect(ticket.evidence).toMatchObject({
      paymentOrderId: order.id,
      status: 'submitting',
      connector: 'provider-sim',
    });
    expect(ticket.evidence.steps.map((step: any) => step.outcome)).toContain('unknown');

    await setSimFaults(sim, {});
    await driveUntil(api, tenant, order.id, ['settled']);
    await runReconciliation(api, finance);
    const [after] = await listTickets(api, finance, '&kind=stuck_payment_order&status=resolved');
    expect(after?.id).toBe(ticket.id);
  });

  it("matches the provider's settlement report to the settled and returned orders by the order id", async () => {
    await setSimFaults(sim, {});
    const settled = await createOrder(api, tenant, orderBody(tenant, '1500'));
    await driveUntil(api, tenant, settled.id, ['settled']);
    await setSimFaults(sim, { return: 1 });
    const returned = await createOrder(api, tenant, orderBody(tenant, '2700'));
    await driveUntil(api, tenant, returned.id, ['returned']);
    await setSimFaults(sim, {});
    // A payment the provider made that no order of the ledger asked for.
    const stray = await fetch(`${sim.url}/v1/payments`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${SIM_SECRET}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body: JSON.stringify({
        reference: 'not-an-order',
        direction: 'payout',
        amount: '990',
        currency: 'EUR',
        counterparty: { name: 'Nobody' },
      }),
    });
    expect(stray.status).toBe(201);

    await createSource(api, finance, {
      name: 'provider-sim',
      account: tenant.clearing,
      format: SETTLEMENT_REPORT_FORMAT,
    });
    const csv = await report();
    expect(csv).toContain(`${returned.id}:return`);
    await uploadStatement(api, finance, 'provider-sim', 'settlement.csv', csv);
    await runReconciliation(api, finance);

    const lines = await api.request('GET', '/v1/statement-lines?source=provider-sim&limit=100', { key: finance });
    const byReference = new Map(lines.body.data.map((line: any) => [line.references.customerReference, line.matched]));
    for (const reference of [settled.id, returned.id, `${returned.id}:return`]) {
      expect(byReference.get(reference), reference).toBe(true);
    }
    expect(byReference.get('not-an-order')).toBe(false);
    const missing = await listTickets(api, finance, '&kind=missing_in_ledger&status=open');
    expect(missing.map((ticket) => ticket.amount)).toContain('-990');
  });
});
