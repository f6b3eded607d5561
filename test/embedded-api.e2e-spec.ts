import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoDataOnce } from '../apps/api/src/demo/demo-data';

/** Where the demo's connector expects the simulator; none runs in this test (no worker calls it). */
const DEMO_PROVIDER_PORT = 4100;
import { type ApiHarness, startApi } from './support/api-harness';
import { createAccount, isoFromNow, mustPost, seededTenant, transfer } from './support/ledger-fixtures';
import {
  bankCsv,
  createSource,
  financeKey,
  listTickets,
  runReconciliation,
  statementDay,
  uploadStatement,
} from './support/reconciliation-fixtures';

// `npm start` runs on PGlite, one connection for everything: a request that opens a transaction and
// then queries beside it would wait for itself forever. The paths a demo user takes, end to end.
let api: ApiHarness;
beforeAll(async () => {
  api = await startApi({ embedded: true });
});
afterAll(async () => {
  await api?.close();
});

describe('the API on the embedded database', () => {
  it('posts, holds, imports, reconciles (twice) and explains, on the single connection', async () => {
    const tenant = await seededTenant(api, 'embedded');
    await createAccount(api, tenant.adminKey, {
      code: 'assets:bank',
      currency: 'USD',
      normalBalance: 'debit',
      allowNegative: true,
    });
    const posted = await mustPost(
      api,
      tenant.posterKey,
      transfer('assets:bank', 'equity:seed', '2500', 'USD', { externalRef: 'EMB-1' }),
    );
    await mustPost(api, tenant.posterKey, {
      ...transfer('equity:seed', 'assets:bank', '100'),
      pending: { expiresAt: isoFromNow(60_000) },
    });
    const key = await financeKey(api, tenant);
    await createSource(api, key, { name: 'bank', account: 'assets:bank', format: 'csv:bank' });
    await uploadStatement(
      api,
      key,
      'bank',
      'bank.csv',
      bankCsv([`${statementDay(0)},${statementDay(0)},Invoice,25.00,USD,EMB-1,Acme`]),
    );
    const first = await runReconciliation(api, key);
    expect(first.stats.matched.reference).toBe(1);
    const second = await runReconciliation(api, key);
    expect(second.stats).toMatchObject({ opened: 0, reopened: 0 });
    const [match] = (await api.request('GET', `/v1/matches?transaction=${posted.id}`, { key })).body.data;
    expect(match).toMatchObject({ rule: 'reference', entries: [{ transactionId: posted.id }] });
  });
});

describe('the demo on first start', () => {
  // A database of its own: the demo loads only into one without tenants.
  let fresh: ApiHarness;
  beforeAll(async () => {
    fresh = await startApi({ embedded: true });
  });
  afterAll(async () => {
    await fresh?.close();
  });

  it('imports its statement and reconciles once: a ticket of each common kind, owned; a second start adds none', {
    timeout: 120_000,
  }, async () => {
    const demo = await loadDemoDataOnce(fresh.app, DEMO_PROVIDER_PORT);
    expect(demo).toBeDefined();
    const key = demo!.posterKey;
    const tickets = await listTickets(fresh, key);
    // The bank's fee and Erik's deposit booked too early (ana), Dan's deposit booked for another amount,
    // Carla's payout not on the statement yet, and the ledger side of Erik's deposit (ben). Dan's entry is
    // the other side of its mismatch, not a ticket of its own.
    const shown = tickets.map((ticket) => [ticket.kind, ticket.amount, ticket.owner, ticket.currency]).sort();
    expect(shown).toEqual(
      [
        ['amount_mismatch', '-500', 'ben@finance', 'EUR'],
        ['missing_in_ledger', '-795', 'ana@finance', 'EUR'],
        ['missing_in_ledger', '8900', 'ana@finance', 'EUR'],
        ['missing_in_statement', '-20000', 'ben@finance', 'EUR'],
        ['missing_in_statement', '8900', 'ben@finance', 'EUR'],
      ].sort(),
    );
    expect(tickets.every((ticket) => ticket.status === 'open')).toBe(true);
    // The bank fee can be booked against the expense account the demo has for it.
    const expenses = await fresh.request('GET', '/v1/accounts/expenses:bank-fees', { key });
    expect(expenses.body).toMatchObject({ currency: 'EUR', normalBalance: 'debit' });
    // Erik's deposit was booked four days before the bank's line, beyond the matcher's three, under another
    // reference: both sides stay open, the ledger's the likely candidate for the line (same amount, near day).
    // Carla's deposit matched on its reference, Fatima's on amount and day.
    const lines = await fresh.request('GET', '/v1/statement-lines?source=bank-eur&status=matched', { key });
    expect(lines.body.data.map((line: { amount: string }) => line.amount).sort()).toEqual(['120000', '50000']);
    const runs = await fresh.request('GET', '/v1/reconciliation/runs', { key });
    expect(runs.body.data).toHaveLength(1);
    expect(runs.body.data[0]).toMatchObject({ status: 'completed', actor: 'demo' });
    const imports = await fresh.request('GET', '/v1/imports', { key });
    expect(imports.body.data.map((made: { source: string; lines: number }) => [made.source, made.lines])).toEqual([
      ['bank-eur', 5],
    ]);

    expect(await loadDemoDataOnce(fresh.app, DEMO_PROVIDER_PORT)).toBeUndefined();
    // Three withdrawals wait for the worker (none runs here), reserved on the wallets they leave from.
    const orders = await fresh.request('GET', '/v1/payment-orders', { key });
    expect(orders.body.data.map((order: { status: string; amount: string }) => [order.status, order.amount])).toEqual([
      ['reserved', '4000'],
      ['reserved', '7500'],
      ['reserved', '15000'],
    ]);
    expect(demo!.providerWebhookEndpoint).toMatch(/^\/v1\/connectors\/[0-9a-f-]{36}\/webhooks$/);
    expect(await listTickets(fresh, key)).toEqual(tickets);
    expect((await fresh.request('GET', '/v1/reconciliation/runs', { key })).body.data).toHaveLength(1);
    expect((await fresh.request('GET', '/v1/imports', { key })).body.data).toHaveLength(1);
  });
});
