import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningProviderSim } from '../apps/provider-sim/src/server';
import { type ApiHarness, startApi } from './support/api-harness';
import { type ConsoleBrowser, openConsoleBrowser } from './support/console-browser';
import {
  type PaymentTenant,
  createOrder,
  driveUntil,
  driveUntilStep,
  getOrder,
  orderBody,
  paymentTenant,
  setSimFaults,
  startSim,
} from './support/payment-fixtures';
import { financeKey, listTickets, runReconciliation } from './support/reconciliation-fixtures';

// The Payments page in Chromium against the real server and the provider simulator: one order settled, one
// stuck (the provider answered 503 before executing it, and its 1 s submit deadline passed), shown stuck
// first with the counts, its page with the timeline and the provider's answer, reached from its ticket too.

let api: ApiHarness;
let sim: RunningProviderSim;
let browser: ConsoleBrowser;
let tenant: PaymentTenant;
let key: string;
let settled: any;
let stuck: any;

/** A bound on the wait, not a threshold: the deadline is 1 s after the order was made. */
const STUCK_WAIT_MAX_MS = 20_000;

/** Waits until the API lists the order stuck, just past its submit deadline. */
async function waitUntilStuck(id: string): Promise<void> {
  const bound = Date.now() + STUCK_WAIT_MAX_MS;
  for (;;) {
    const listed = await api.request('GET', '/v1/payment-orders?stuck=true', { key: tenant.posterKey });
    if (listed.body.data.some((order: any) => order.id === id)) return;
    if (Date.now() > bound) throw new Error(`order ${id} never listed stuck: ${JSON.stringify(listed.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  [api, sim] = await Promise.all([startApi(), startSim('error_before_execute=1')]);
  tenant = await paymentTenant(api, sim, '100000', { submitDeadlineSeconds: 1 });
  key = await financeKey(api, tenant);

  await setSimFaults(sim, { error_before_execute: 0 });
  const first = await createOrder(api, tenant, orderBody(tenant, '2500', { externalRef: 'withdrawal-settled' }));
  settled = await driveUntil(api, tenant, first.id, ['settled']);

  await setSimFaults(sim, { error_before_execute: 1 });
  const body = orderBody(tenant, '1200', {
    counterparty: { name: 'Bruno Keller', iban: 'FR1420041010050500013M02606' },
  });
  const second = await createOrder(api, tenant, body);
  stuck = await driveUntilStep(api, tenant, second.id, 'unknown');
  expect(stuck.status).toBe('submitting');
  await waitUntilStuck(second.id);
  stuck = await getOrder(api, tenant, second.id);

  browser = await openConsoleBrowser();
  await browser.page.goto(`${api.baseUrl}/console/#/payments`);
  await browser.page.getByLabel('API key').fill(key);
  await browser.page.getByRole('button', { name: 'Sign in' }).click();
  await browser.page.getByRole('heading', { level: 1, name: 'Payment orders' }).waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([api?.close(), sim?.close()]);
});

describe('payment orders in the console', () => {
  it('lists the stuck order first, with the counts per status and the stuck count', { timeout: 60_000 }, async () => {
    const { page } = browser;
    const counts = page.getByRole('list', { name: 'Payment orders by status' });
    await expect.poll(() => counts.textContent()).toMatch(/settled\s*1/);
    expect(await counts.textContent()).toMatch(/submitting\s*1/);
    expect(await counts.textContent()).toMatch(/stuck\s*1/);

    const stuckSection = page.getByRole('region', { name: 'Stuck orders' });
    const stuckRows = stuckSection.locator('tbody tr');
    await stuckRows.first().waitFor();
    expect(await stuckRows.count()).toBe(1);
    const row = await stuckRows.first().textContent();
    expect(row).toContain('Bruno Keller');
    expect(row).toContain('12.00 EUR');
    expect(row).toContain('Stuck');
    expect(row).toContain(stuck.lastError);

    // The stuck section comes before every order; there both are, newest first.
    const allRows = page.getByRole('region', { name: 'All orders' }).locator('tbody tr');
    await allRows.nth(1).waitFor();
    expect(await allRows.count()).toBe(2);
    expect(await allRows.nth(0).textContent()).toContain('Bruno Keller');
    expect(await allRows.nth(1).textContent()).toContain('25.00 EUR');
    expect(await allRows.nth(1).textContent()).toContain('executed');
    const headings = await page.getByRole('heading', { level: 2 }).allTextContents();
    expect(headings.indexOf('Stuck orders')).toBeLessThan(headings.indexOf('All orders'));
    await browser.screenshot('payments-01-list');

    // Filtered by status, through the address.
    await page.getByLabel('Status', { exact: true }).selectOption('settled');
    await page.getByRole('button', { name: 'Apply filter' }).click();
    await expect.poll(() => browser.hash()).toBe('#/payments?status=settled');
    await expect.poll(() => allRows.count()).toBe(1);
    expect(await allRows.first().textContent()).toContain('25.00 EUR');
  });

  it("shows the stuck order's banner and timeline, with the unknown step and the provider's answer", {
    timeout: 60_000,
  }, async () => {
    const { page } = browser;
    await page.goto(`${api.baseUrl}/console/#/payments`);
    await page.getByRole('region', { name: 'Stuck orders' }).getByRole('link').filter({ hasText: 'UTC' }).click();
    await page.getByRole('heading', { level: 1, name: 'Payout of 12.00 EUR to Bruno Keller' }).waitFor();
    expect(await browser.hash()).toBe(`#/payments/${stuck.id}`);

    const banner = page.getByRole('alert');
    expect(await banner.textContent()).toContain('Stuck:');
    expect(await banner.textContent()).toContain(stuck.lastError);

    const steps = page.getByRole('region', { name: 'Timeline' }).locator('tbody tr');
    expect(await steps.count()).toBe(stuck.steps.length);
    const unknown = steps.filter({ hasText: 'unknown' });
    expect(await unknown.count()).toBe(1);
    const text = await unknown.textContent();
    expect(text).toContain('submit');
    expect(text).toContain('HTTP 503');
    expect(text).toMatch(/\d+ ms/);
    expect(text).toContain('submitting');
    expect(text).toContain('simulated outage before execution');
    // The body the provider answered, folded away until asked for.
    const body = unknown.locator('details pre');
    expect(await body.isVisible()).toBe(false);
    await unknown.getByText('Provider answer body').click();
    expect(await body.isVisible()).toBe(true);
    const stored = stuck.steps.find((step: any) => step.outcome === 'unknown').detail.body;
    expect(JSON.parse((await body.textContent()) ?? '')).toEqual(JSON.parse(stored));
    await browser.screenshot('payments-02-stuck-order');
  });

  it('shows a settled order without a banner, with its ledger transactions', { timeout: 60_000 }, async () => {
    const { page } = browser;
    await page.goto(`${api.baseUrl}/console/#/payments/${settled.id}`);
    await page.getByRole('heading', { level: 1, name: 'Payout of 25.00 EUR to Alice Martin' }).waitFor();
    await page.getByRole('region', { name: 'Timeline' }).locator('tbody tr').first().waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    const summary = await page.locator('dl.summary').textContent();
    expect(summary).toContain(settled.settleTransactionId);
    expect(summary).toContain(settled.holdId);
    expect(summary).toContain('withdrawal-settled');
    const statuses = page.getByRole('region', { name: 'Timeline' }).locator('tbody tr td:nth-child(5)');
    expect((await statuses.allTextContents()).map((each) => each.trim())).toEqual(
      settled.steps.map((step: any) => step.status),
    );
  });

  it("links the stuck order's ticket to the order", { timeout: 60_000 }, async () => {
    const { page } = browser;
    await runReconciliation(api, key);
    const [ticket] = await listTickets(api, key, '&kind=stuck_payment_order');
    expect(ticket.evidence.paymentOrderId).toBe(stuck.id);
    await page.goto(`${api.baseUrl}/console/#/discrepancies/${ticket.id}`);
    await page.getByRole('heading', { level: 1, name: ticket.summary }).waitFor();
    await page.getByRole('link', { name: stuck.id }).click();
    await page.getByRole('heading', { level: 1, name: 'Payout of 12.00 EUR to Bruno Keller' }).waitFor();
    expect(browser.errors.filter((message) => !message.startsWith('Failed to load resource'))).toEqual([]);
  });
});
