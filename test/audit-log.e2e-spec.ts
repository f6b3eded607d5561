import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { createAccount, createApiKey, setupTenant, sqlRows } from './support/ledger-fixtures';

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

describe('audit log', () => {
  it('records each configuration change once (who, what) in its transaction; refusals, replays: none', async () => {
    const tenant = await setupTenant(api, 'audited');
    const account = await createAccount(api, tenant.adminKey, {
      code: 'assets:bank',
      currency: 'USD',
      normalBalance: 'debit',
    });
    const financeKey = await createApiKey(api, tenant.adminKey, ['finance'], 'finance desk');
    const routeKey = randomUUID();
    const route = () =>
      api.request('POST', '/v1/owner-routes', {
        key: financeKey,
        idempotencyKey: routeKey,
        body: { priority: 1, owner: 'maria' },
      });
    expect((await route()).status).toBe(201);
    expect((await route()).headers.get('idempotent-replayed')).toBe('true');
    expect(
      (await api.request('PUT', '/v1/matching-rules', { key: financeKey, body: { rules: [{ type: 'reference' }] } }))
        .status,
    ).toBe(200);
    // Refused: a duplicate account code, and a poster creating an account.
    expect(
      (
        await api.request('POST', '/v1/accounts', {
          key: tenant.adminKey,
          idempotencyKey: randomUUID(),
          body: { code: 'assets:bank', currency: 'USD', normalBalance: 'debit' },
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await api.request('POST', '/v1/accounts', {
          key: tenant.posterKey,
          idempotencyKey: randomUUID(),
          body: { code: 'x', currency: 'USD', normalBalance: 'debit' },
        })
      ).status,
    ).toBe(403);

    const auditor = await createApiKey(api, tenant.adminKey, ['auditor']);
    const log = await api.request('GET', '/v1/audit-log?limit=50', { key: auditor });
    expect(log.status).toBe(200);
    const entries = (log.body.data as any[]).map((entry) => [
      entry.action,
      entry.actor.startsWith('api-key:') || entry.actor === 'operator',
      entry.targetId,
    ]);
    expect(entries).toEqual([
      ['api_key.create', true, expect.any(String)],
      ['matching_rules.replace', true, null],
      ['owner_route.create', true, expect.any(String)],
      ['api_key.create', true, expect.any(String)],
      ['account.create', true, account.id],
      ['api_key.create', true, expect.any(String)],
      ['tenant.create', true, tenant.tenantId],
    ]);
    const keyCreated = (log.body.data as any[]).find(
      (entry) => entry.action === 'api_key.create' && entry.request.name === 'finance desk',
    );
    expect(keyCreated.request).toEqual({ name: 'finance desk', roles: ['finance'] });
    expect(JSON.stringify(log.body)).not.toContain(financeKey);
    expect(
      (await api.request('GET', '/v1/audit-log?action=account.create', { key: tenant.adminKey })).body.data,
    ).toHaveLength(1);
    expect((await api.request('GET', '/v1/audit-log', { key: tenant.posterKey })).status).toBe(403);
    const tampered = sqlRows(api, `UPDATE audit_log SET actor = 'nobody' WHERE tenant_id = $1`, [tenant.tenantId]);
    await expect(tampered).rejects.toThrow(/append-only|LG002|not allowed|forbid/i);
  });
});
