import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { type TestTenant, createAccount, seededTenant, sqlRows } from './support/ledger-fixtures';
import {
  bankCsv,
  createSource,
  financeKey,
  listTickets,
  runReconciliation,
  uploadStatement,
} from './support/reconciliation-fixtures';

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

const DAY_MS = 24 * 3600 * 1000;
const day = (offset: number) => new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);

describe('the discrepancy queue: counts per status, the age filter, the lines tickets name', () => {
  let tenant: TestTenant;
  let key: string;
  let tickets: any[];

  beforeAll(async () => {
    tenant = await seededTenant(api, 'queue');
    await createAccount(api, tenant.adminKey, {
      code: 'assets:bank',
      currency: 'USD',
      normalBalance: 'debit',
      allowNegative: true,
    });
    key = await financeKey(api, tenant);
    await createSource(api, key, { name: 'bank', account: 'assets:bank', format: 'csv:bank' });
    // Three deposits the ledger never heard of: three missing_in_ledger tickets.
    await uploadStatement(
      api,
      key,
      'bank',
      'statement.csv',
      bankCsv([
        `${day(-1)},${day(-1)},A,10.00,USD,,X`,
        `${day(-1)},${day(-1)},B,20.00,USD,,Y`,
        `${day(-1)},${day(-1)},C,30.00,USD,,Z`,
      ]),
    );
    await runReconciliation(api, key);
    tickets = await listTickets(api, key);
    expect(tickets).toHaveLength(3);
  });

  it('counts tickets per status and the overdue ones, for this tenant only', async () => {
    const before = await api.request('GET', '/v1/discrepancies/counts', { key });
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      byStatus: { open: 3, acknowledged: 0, resolved: 0, ignored: 0 },
      overdue: 0,
      total: 3,
    });

    await api.request('PATCH', `/v1/discrepancies/${tickets[0].id}`, {
      key,
      body: { status: 'resolved', note: 'booked by hand' },
    });
    await api.request('PATCH', `/v1/discrepancies/${tickets[1].id}`, { key, body: { status: 'acknowledged' } });
    await sqlRows(api, `UPDATE discrepancies SET due_at = now() - interval '1 hour' WHERE tenant_id = $1 AND id = $2`, [
      tenant.tenantId,
      tickets[1].id,
    ]);
    const after = await api.request('GET', '/v1/discrepancies/counts', { key });
    expect(after.body).toEqual({
      byStatus: { open: 1, acknowledged: 1, resolved: 1, ignored: 0 },
      overdue: 1,
      total: 3,
    });

    const other = await seededTenant(api, 'someone else');
    const otherKey = await financeKey(api, other);
    expect((await api.request('GET', '/v1/discrepancies/counts', { key: otherKey })).body.total).toBe(0);
  });

  it('filters by age: openedBefore keeps only tickets opened before that instant', async () => {
    await sqlRows(
      api,
      `UPDATE discrepancies SET opened_at = now() - interval '10 days' WHERE tenant_id = $1 AND id = $2`,
      [tenant.tenantId, tickets[2].id],
    );
    const weekAgo = new Date(Date.now() - 7 * DAY_MS).toISOString();
    const old = await listTickets(api, key, `&openedBefore=${encodeURIComponent(weekAgo)}`);
    expect(old.map((ticket) => ticket.id)).toEqual([tickets[2].id]);
    expect(old[0].ageHours).toBeGreaterThanOrEqual(240);
    expect(
      await listTickets(api, key, `&openedBefore=${encodeURIComponent(new Date(Date.now() + 1000).toISOString())}`),
    ).toHaveLength(3);

    const bad = await api.request('GET', '/v1/discrepancies?openedBefore=last-week', { key });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
  });

  it("reads a ticket's statement line by id, with its import, and never another tenant's", async () => {
    const lineId = tickets[0].evidence.statementLineId as string;
    const line = await api.request('GET', `/v1/statement-lines/${lineId}`, { key });
    expect(line.status).toBe(200);
    expect(line.body).toMatchObject({
      id: lineId,
      currency: 'USD',
      description: expect.any(String),
      importId: expect.any(String),
    });
    expect(['1000', '2000', '3000']).toContain(line.body.amount);
    expect((await api.request('GET', `/v1/imports/${line.body.importId}`, { key })).status).toBe(200);

    const other = await seededTenant(api, 'not the owner');
    expect(
      (await api.request('GET', `/v1/statement-lines/${lineId}`, { key: await financeKey(api, other) })).status,
    ).toBe(404);
    expect((await api.request('GET', '/v1/statement-lines/not-a-uuid', { key })).status).toBe(404);
  });
});
