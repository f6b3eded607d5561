import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { createApiKey, expectError } from './support/ledger-fixtures';

// Keys are listed and revoked by the tenant's admins; a revoked key is refused at once by the process
// that revoked it and within LEDGER_KEY_CACHE_SECONDS by every other one.

const OTHER_PROCESS_CACHE_SECONDS = 1;

let api: ApiHarness;
let other: ApiHarness;
beforeAll(async () => {
  api = await startApi();
  other = await startApi({ sharing: api, settings: { LEDGER_KEY_CACHE_SECONDS: String(OTHER_PROCESS_CACHE_SECONDS) } });
});
afterAll(async () => {
  await other?.close();
  await api?.close();
});

async function keyIdOf(key: string, on: ApiHarness = api): Promise<string> {
  const current = await on.request('GET', '/v1/api-keys/current', { key });
  expect(current.status).toBe(200);
  return current.body.id;
}

const revoke = (adminKey: string, id: string, on: ApiHarness = api) =>
  on.request('DELETE', `/v1/api-keys/${id}`, { key: adminKey });

describe('GET /v1/api-keys', () => {
  it("lists the tenant's keys newest first, paged, without their secrets", async () => {
    const { adminKey } = await api.createTenant('key list');
    const financeKey = await createApiKey(api, adminKey, ['finance'], 'reports');
    const posterKey = await createApiKey(api, adminKey, ['poster'], 'checkout');
    const ids = [await keyIdOf(posterKey), await keyIdOf(financeKey), await keyIdOf(adminKey)];

    const first = await api.request('GET', '/v1/api-keys?limit=2', { key: adminKey });
    expect(first.status).toBe(200);
    expect(first.body.data.map((key: { id: string }) => key.id)).toEqual(ids.slice(0, 2));
    expect(first.body.data[0]).toEqual({
      id: ids[0],
      name: 'checkout',
      roles: ['poster'],
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      expiresAt: null,
      revokedAt: null,
    });
    expect(JSON.stringify(first.body)).not.toContain(posterKey.slice(4, 20));
    const second = await api.request('GET', `/v1/api-keys?limit=2&cursor=${first.body.nextCursor}`, {
      key: adminKey,
    });
    expect(second.body.data.map((key: { id: string }) => key.id)).toEqual([ids[2]]);
    expect(second.body.nextCursor).toBeNull();
  });

  it('is for admins only, and refuses a bad page size', async () => {
    const { adminKey } = await api.createTenant('key list roles');
    const financeKey = await createApiKey(api, adminKey, ['finance']);
    expectError(await api.request('GET', '/v1/api-keys', { key: financeKey }), 403, 'FORBIDDEN');
    const bad = await api.request('GET', '/v1/api-keys?limit=0', { key: adminKey });
    expectError(bad, 400, 'VALIDATION_FAILED');
    expect(bad.body.error.details.fields).toEqual([expect.objectContaining({ path: 'limit' })]);
  });
});

describe('DELETE /v1/api-keys/:id', () => {
  it('revokes: 401 at once in this process, within the cache time in another, and audited', async () => {
    const { adminKey } = await api.createTenant('key revoke');
    const financeKey = await createApiKey(api, adminKey, ['finance']);
    const id = await keyIdOf(financeKey);
    // Both processes have verified the key and remember it.
    expect((await api.request('GET', '/v1/discrepancies', { key: financeKey })).status).toBe(200);
    expect((await other.request('GET', '/v1/discrepancies', { key: financeKey })).status).toBe(200);

    const revoked = await revoke(adminKey, id);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id, roles: ['finance'], revokedAt: expect.any(String) });
    expectError(await api.request('GET', '/v1/discrepancies', { key: financeKey }), 401, 'UNAUTHENTICATED');

    // The other process reads the key again after its cache time; a generous deadline, as the machine is shared.
    const deadline = Date.now() + OTHER_PROCESS_CACHE_SECONDS * 1000 + 15_000;
    let status = 200;
    while (status !== 401 && Date.now() < deadline) {
      await sleep(100);
      status = (await other.request('GET', '/v1/discrepancies', { key: financeKey })).status;
    }
    expect(status).toBe(401);

    const again = await revoke(adminKey, id);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(revoked.body);
    const listed = await api.request('GET', '/v1/api-keys', { key: adminKey });
    expect(listed.body.data.find((key: { id: string }) => key.id === id).revokedAt).toBe(revoked.body.revokedAt);
    const audit = await api.request('GET', '/v1/audit-log?action=api_key.revoke', { key: adminKey });
    expect(audit.body.data).toHaveLength(2);
    expect(audit.body.data[0]).toMatchObject({ targetId: id, actor: `api-key:${await keyIdOf(adminKey)}` });
  });

  it("answers 404 for another tenant's key and leaves it working", async () => {
    const owner = await api.createTenant('key owner');
    const stranger = await api.createTenant('key stranger');
    const financeKey = await createApiKey(api, owner.adminKey, ['finance']);
    const id = await keyIdOf(financeKey);
    expectError(await revoke(stranger.adminKey, id), 404, 'NOT_FOUND');
    expectError(await revoke(owner.adminKey, '0190f2a4-0000-7000-8000-000000000000'), 404, 'NOT_FOUND');
    expect((await api.request('GET', '/v1/discrepancies', { key: financeKey })).status).toBe(200);
  });

  it('is for admins only, and names a bad id', async () => {
    const { adminKey } = await api.createTenant('key revoke roles');
    const financeKey = await createApiKey(api, adminKey, ['finance']);
    expectError(await revoke(financeKey, await keyIdOf(adminKey)), 403, 'FORBIDDEN');
    const bad = await revoke(adminKey, 'not-a-uuid');
    expectError(bad, 400, 'VALIDATION_FAILED');
    expect(bad.body.error.details.fields).toEqual([{ path: 'id', message: 'must be a UUID' }]);
    expect((await api.request('GET', '/v1/api-keys/current', { key: adminKey })).status).toBe(200);
  });

  it("refuses to revoke the tenant's last live admin key, also when two admins revoke each other at once", async () => {
    const { adminKey } = await api.createTenant('last admin');
    const firstId = await keyIdOf(adminKey);
    const last = await revoke(adminKey, firstId);
    expectError(last, 409, 'LAST_ADMIN_KEY');
    expect((await api.request('GET', '/v1/api-keys/current', { key: adminKey })).status).toBe(200);

    const left = await createApiKey(api, adminKey, ['admin'], 'left');
    const right = await createApiKey(api, adminKey, ['admin'], 'right');
    expect((await revoke(adminKey, firstId)).status).toBe(200);
    const [leftId, rightId] = [await keyIdOf(left), await keyIdOf(right)];
    // Whichever commits first wins; the other is refused as the last admin, or is already revoked (401).
    const answers = await Promise.all([revoke(left, rightId), revoke(right, leftId)]);
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses[0]).toBe(200);
    expect([401, 409]).toContain(statuses[1]);
    const listed = await api.request('GET', '/v1/api-keys', { key: answers[0].status === 200 ? left : right });
    const live = listed.body.data.filter((key: { revokedAt: string | null }) => key.revokedAt === null);
    expect(live).toHaveLength(1);
  });
});
