import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { createApiKey, expectError } from './support/ledger-fixtures';

// Owner routes are listed in the order they apply, edited field by field and deleted, by finance and
// admin keys, audited, and only within the caller's tenant.

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

async function addRoute(key: string, body: Record<string, unknown>): Promise<{ id: string }> {
  const created = await api.request('POST', '/v1/owner-routes', { key, idempotencyKey: randomUUID(), body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

async function financeTenant(name: string) {
  const { adminKey } = await api.createTenant(name);
  return { adminKey, financeKey: await createApiKey(api, adminKey, ['finance']) };
}

describe('owner routes: list, edit, delete', () => {
  it('lists the rules by priority, paged; edits only the fields sent; deletes; all audited', async () => {
    const { adminKey, financeKey } = await financeTenant('routes');
    const fallback = await addRoute(financeKey, { priority: 100, owner: 'anyone' });
    const big = await addRoute(financeKey, { priority: 10, minAmount: '100000', owner: 'treasury' });
    const fees = await addRoute(financeKey, { priority: 20, kind: 'missing_in_ledger', owner: 'ap' });

    const first = await api.request('GET', '/v1/owner-routes?limit=2', { key: financeKey });
    expect(first.status).toBe(200);
    expect(first.body.data.map((route: { id: string }) => route.id)).toEqual([big.id, fees.id]);
    const second = await api.request('GET', `/v1/owner-routes?limit=2&cursor=${first.body.nextCursor}`, {
      key: adminKey,
    });
    expect(second.body).toEqual({
      data: [
        {
          id: fallback.id,
          priority: 100,
          kind: null,
          source: null,
          accountPrefix: null,
          minAmount: null,
          owner: 'anyone',
        },
      ],
      nextCursor: null,
    });

    const edited = await api.request('PATCH', `/v1/owner-routes/${big.id}`, {
      key: adminKey,
      body: { priority: 30, minAmount: null, accountPrefix: 'assets:bank' },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toEqual({
      id: big.id,
      priority: 30,
      kind: null,
      source: null,
      accountPrefix: 'assets:bank',
      minAmount: null,
      owner: 'treasury',
    });
    const order = await api.request('GET', '/v1/owner-routes', { key: financeKey });
    expect(order.body.data.map((route: { id: string }) => route.id)).toEqual([fees.id, big.id, fallback.id]);

    const deleted = await api.request('DELETE', `/v1/owner-routes/${fees.id}`, { key: financeKey });
    expect(deleted.status).toBe(204);
    expectError(await api.request('DELETE', `/v1/owner-routes/${fees.id}`, { key: financeKey }), 404, 'NOT_FOUND');
    const left = await api.request('GET', '/v1/owner-routes', { key: financeKey });
    expect(left.body.data.map((route: { id: string }) => route.id)).toEqual([big.id, fallback.id]);

    const audit = await api.request('GET', '/v1/audit-log', { key: adminKey });
    const changes = audit.body.data.filter((entry: { action: string }) =>
      ['owner_route.update', 'owner_route.delete'].includes(entry.action),
    );
    expect(changes.map((entry: { action: string; targetId: string }) => [entry.action, entry.targetId])).toEqual([
      ['owner_route.delete', fees.id],
      ['owner_route.update', big.id],
    ]);
    expect(changes[1].request).toEqual({ priority: 30, minAmount: null, accountPrefix: 'assets:bank' });
  });

  it("answers 404 for another tenant's rule and changes nothing of it", async () => {
    const owner = await financeTenant('routes owner');
    const stranger = await financeTenant('routes stranger');
    const route = await addRoute(owner.financeKey, { priority: 1, owner: 'alice' });
    const key = stranger.financeKey;
    expectError(
      await api.request('PATCH', `/v1/owner-routes/${route.id}`, { key, body: { owner: 'mallory' } }),
      404,
      'NOT_FOUND',
    );
    expectError(await api.request('DELETE', `/v1/owner-routes/${route.id}`, { key }), 404, 'NOT_FOUND');
    expect((await api.request('GET', '/v1/owner-routes', { key })).body.data).toEqual([]);
    const mine = await api.request('GET', '/v1/owner-routes', { key: owner.financeKey });
    expect(mine.body.data).toEqual([expect.objectContaining({ id: route.id, owner: 'alice' })]);
  });

  it('is for finance and admin keys only', async () => {
    const { adminKey, financeKey } = await financeTenant('routes roles');
    const route = await addRoute(financeKey, { priority: 1, owner: 'alice' });
    const auditorKey = await createApiKey(api, adminKey, ['auditor', 'poster']);
    expectError(await api.request('GET', '/v1/owner-routes', { key: auditorKey }), 403, 'FORBIDDEN');
    const patch = { key: auditorKey, body: { owner: 'bob' } };
    expectError(await api.request('PATCH', `/v1/owner-routes/${route.id}`, patch), 403, 'FORBIDDEN');
    expectError(await api.request('DELETE', `/v1/owner-routes/${route.id}`, { key: auditorKey }), 403, 'FORBIDDEN');
  });

  it('names the bad field: id, an empty change, a bad value, an unknown field, a bad cursor', async () => {
    const { financeKey } = await financeTenant('routes validation');
    const route = await addRoute(financeKey, { priority: 1, owner: 'alice' });
    const fieldsOf = async (method: string, path: string, body?: unknown) => {
      const answer = await api.request(method, path, { key: financeKey, body });
      expectError(answer, 400, 'VALIDATION_FAILED');
      return answer.body.error.details.fields.map((field: { path: string }) => field.path);
    };
    expect(await fieldsOf('DELETE', '/v1/owner-routes/not-a-uuid')).toEqual(['id']);
    expect(await fieldsOf('PATCH', '/v1/owner-routes/42', { owner: 'bob' })).toEqual(['id']);
    expect(await fieldsOf('PATCH', `/v1/owner-routes/${route.id}`, {})).toEqual(['body']);
    expect(await fieldsOf('PATCH', `/v1/owner-routes/${route.id}`, { priority: -1 })).toEqual(['priority']);
    expect(await fieldsOf('PATCH', `/v1/owner-routes/${route.id}`, { minAmount: '0' })).toEqual(['minAmount']);
    expect(await fieldsOf('PATCH', `/v1/owner-routes/${route.id}`, { kind: 'nope' })).toEqual(['kind']);
    expect(await fieldsOf('PATCH', `/v1/owner-routes/${route.id}`, { owner: null })).toEqual(['owner']);
    expect(await fieldsOf('PATCH', `/v1/owner-routes/${route.id}`, { colour: 'red', owner: 'bob' })).toEqual([
      'colour',
    ]);
    expect(await fieldsOf('GET', '/v1/owner-routes?cursor=bm9wZQ')).toEqual(['cursor']);
    const unchanged = await api.request('GET', '/v1/owner-routes', { key: financeKey });
    expect(unchanged.body.data).toEqual([expect.objectContaining({ id: route.id, priority: 1, owner: 'alice' })]);
  });
});
