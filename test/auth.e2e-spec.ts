import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, TEST_OPERATOR_TOKEN, startApi } from './support/api-harness';
import {
  type TestTenant,
  createAccount,
  createApiKey,
  expectError,
  expectNothingWritten,
  mustPost,
  postTransaction,
  readEventFeed,
  setupTenant,
  sqlRows,
  transfer,
} from './support/ledger-fixtures';

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

/** The same key with its embedded tenant id replaced: secret and key id stay valid-looking. */
function withTenant(key: string, tenantId: string): string {
  const payload = Buffer.from(key.slice('ldg_'.length), 'base64url');
  Buffer.from(tenantId.replace(/-/g, ''), 'hex').copy(payload, 0);
  return `ldg_${payload.toString('base64url')}`;
}

function flipLastSecretByte(key: string): string {
  const payload = Buffer.from(key.slice('ldg_'.length), 'base64url');
  payload[payload.length - 1] = payload[payload.length - 1]! ^ 0xff;
  return `ldg_${payload.toString('base64url')}`;
}

describe('authentication', () => {
  let tenant: TestTenant;
  const CODES = ['assets:cash', 'income:sales'];
  beforeAll(async () => {
    tenant = await setupTenant(api, 'auth');
    await createAccount(api, tenant.adminKey, { code: 'assets:cash', currency: 'USD', normalBalance: 'debit' });
    await createAccount(api, tenant.adminKey, { code: 'income:sales', currency: 'USD', normalBalance: 'credit' });
  });

  it('no Authorization header is 401 UNAUTHENTICATED on every tenant route', async () => {
    await expectNothingWritten(api, tenant, CODES, async () => {
      for (const [method, path, body] of [
        ['GET', '/v1/accounts/assets:cash', undefined],
        ['GET', '/v1/accounts/assets:cash/entries', undefined],
        ['GET', '/v1/transactions', undefined],
        ['GET', `/v1/transactions/${randomUUID()}`, undefined],
        ['GET', '/v1/events', undefined],
        ['POST', '/v1/transactions', transfer('assets:cash', 'income:sales', '5')],
        ['POST', '/v1/accounts', { code: 'x:y', currency: 'USD', normalBalance: 'debit' }],
        ['POST', '/v1/api-keys', { name: 'k', roles: ['admin'] }],
        ['POST', '/v1/tenants', { name: 'nobody' }],
      ] as const) {
        const response = await api.request(method, path, { body, idempotencyKey: randomUUID() });
        expectError(response, 401, 'UNAUTHENTICATED');
      }
    });
  });

  it('invalid, garbled, tampered or revoked keys are 401 UNAUTHENTICATED and write nothing', async () => {
    const unusedKey = await createApiKey(api, tenant.adminKey, ['poster'], 'to be revoked');
    await sqlRows(api, `UPDATE api_keys SET revoked_at = now() WHERE tenant_id = $1 AND name = 'to be revoked'`, [
      tenant.tenantId,
    ]);
    const bad = [
      'not-a-key',
      'ldg_',
      'ldg_@@@@',
      tenant.posterKey.slice(0, -4),
      `${tenant.posterKey}AAAA`,
      flipLastSecretByte(tenant.posterKey),
      withTenant(tenant.posterKey, randomUUID()),
      `ldg_${'A'.repeat(190)}`,
      unusedKey,
    ];
    await expectNothingWritten(api, tenant, CODES, async () => {
      for (const key of bad) {
        const response = await postTransaction(api, key, transfer('assets:cash', 'income:sales', '5'));
        expectError(response, 401, 'UNAUTHENTICATED');
      }
      for (const header of [
        `Basic ${tenant.posterKey}`,
        `Bearer ${tenant.posterKey} extra`,
        'Bearer',
        `Bearer ${'x'.repeat(300)}`,
        tenant.posterKey,
      ]) {
        const response = await api.request('GET', '/v1/accounts/assets:cash', { headers: { authorization: header } });
        expectError(response, 401, 'UNAUTHENTICATED');
      }
    });
  });

  it('GET /health is public', async () => {
    const response = await api.request('GET', '/health');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      database: 'up',
      outbox: { oldestUnpublishedAgeSeconds: expect.any(Number) },
    });
    expect((await api.request('GET', '/health', { headers: { authorization: 'Bearer garbage' } })).status).toBe(200);
  });
});

describe('roles', () => {
  let tenant: TestTenant;
  let auditorKey: string;
  let financeKey: string;
  const CODES = ['assets:cash', 'income:sales'];
  beforeAll(async () => {
    tenant = await setupTenant(api, 'roles');
    auditorKey = await createApiKey(api, tenant.adminKey, ['auditor']);
    financeKey = await createApiKey(api, tenant.adminKey, ['finance']);
    await createAccount(api, tenant.adminKey, { code: 'assets:cash', currency: 'USD', normalBalance: 'debit' });
    await createAccount(api, tenant.adminKey, { code: 'income:sales', currency: 'USD', normalBalance: 'credit' });
  });

  const postAs = (key: string) => postTransaction(api, key, transfer('assets:cash', 'income:sales', '5'));
  const createAccountAs = (key: string) =>
    api.request('POST', '/v1/accounts', {
      key,
      idempotencyKey: randomUUID(),
      body: { code: `new:${randomUUID()}`, currency: 'USD', normalBalance: 'debit' },
    });
  const createKeyAs = (key: string) =>
    api.request('POST', '/v1/api-keys', {
      key,
      idempotencyKey: randomUUID(),
      body: { name: 'escalate', roles: ['admin'] },
    });

  it('auditor and finance keys cannot post transactions, create accounts or create keys (403 FORBIDDEN)', async () => {
    await expectNothingWritten(api, tenant, CODES, async () => {
      for (const key of [auditorKey, financeKey]) {
        const posted = await postAs(key);
        expectError(posted, 403, 'FORBIDDEN');
        expect(posted.body.error.details.required).toEqual(['poster']);
        expectError(await createAccountAs(key), 403, 'FORBIDDEN');
        expectError(await createKeyAs(key), 403, 'FORBIDDEN');
      }
    });
  });

  it('a poster key cannot create accounts or keys; an admin key cannot post', async () => {
    await expectNothingWritten(api, tenant, CODES, async () => {
      expectError(await createAccountAs(tenant.posterKey), 403, 'FORBIDDEN');
      expectError(await createKeyAs(tenant.posterKey), 403, 'FORBIDDEN');
      expectError(await postAs(tenant.adminKey), 403, 'FORBIDDEN');
    });
  });

  it('key creation validates the roles and writes nothing when refused', async () => {
    await expectNothingWritten(api, tenant, CODES, async () => {
      for (const body of [
        { name: 'k', roles: [] },
        { name: 'k', roles: ['root'] },
        { name: '', roles: ['poster'] },
        { name: 'k' },
        { name: 'k', roles: 'admin' },
      ]) {
        const response = await api.request('POST', '/v1/api-keys', {
          key: tenant.adminKey,
          idempotencyKey: randomUUID(),
          body,
        });
        expectError(response, 400, 'VALIDATION_FAILED');
      }
    });
    const created = await api.request('POST', '/v1/api-keys', {
      key: tenant.adminKey,
      idempotencyKey: randomUUID(),
      body: { name: 'dup roles', roles: ['poster', 'poster'] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.any(String),
      name: 'dup roles',
      roles: ['poster'],
      key: expect.stringMatching(/^ldg_/),
    });
  });

  it('every role may read; a key with several roles gets the union', async () => {
    for (const key of [auditorKey, financeKey, tenant.posterKey, tenant.adminKey]) {
      expect((await api.request('GET', '/v1/accounts/assets:cash', { key })).status).toBe(200);
      expect((await api.request('GET', '/v1/transactions', { key })).status).toBe(200);
      expect((await api.request('GET', '/v1/events', { key })).status).toBe(200);
    }
    const both = await createApiKey(api, tenant.adminKey, ['auditor', 'poster']);
    expect((await postAs(both)).status).toBe(201);
  });

  it('the operator token cannot use tenant routes, and an API key cannot create tenants', async () => {
    const tenantsBefore = await sqlRows<{ n: number }>(api, 'SELECT count(*)::int AS n FROM tenants');
    await expectNothingWritten(api, tenant, CODES, async () => {
      for (const response of [
        await createAccountAs(TEST_OPERATOR_TOKEN),
        await api.request('GET', '/v1/accounts/assets:cash', { key: TEST_OPERATOR_TOKEN }),
        await postAs(TEST_OPERATOR_TOKEN),
        await createKeyAs(TEST_OPERATOR_TOKEN),
        await api.request('POST', '/v1/tenants', { key: tenant.adminKey, body: { name: 'by an api key' } }),
        await api.request('POST', '/v1/tenants', { key: tenant.posterKey, body: { name: 'by an api key' } }),
        await api.request('POST', '/v1/tenants', {
          key: `${TEST_OPERATOR_TOKEN}x`,
          body: { name: 'wrong operator token' },
        }),
      ]) {
        expect([401, 403]).toContain(response.status);
        expectError(response, response.status, response.status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN');
      }
    });
    expect(await sqlRows(api, 'SELECT count(*)::int AS n FROM tenants')).toEqual(tenantsBefore);
  });
});

describe('tenant isolation', () => {
  let a: TestTenant;
  let b: TestTenant;
  let aCash: any;
  let aTransaction: any;
  const A_CODES = ['assets:cash', 'income:sales'];
  beforeAll(async () => {
    a = await setupTenant(api, 'tenant A');
    b = await setupTenant(api, 'tenant B');
    aCash = await createAccount(api, a.adminKey, { code: 'assets:cash', currency: 'USD', normalBalance: 'debit' });
    await createAccount(api, a.adminKey, { code: 'income:sales', currency: 'USD', normalBalance: 'credit' });
    // B has an account with the same code as one of A's, and one of its own.
    await createAccount(api, b.adminKey, { code: 'assets:cash', currency: 'USD', normalBalance: 'debit' });
    await createAccount(api, b.adminKey, { code: 'income:other', currency: 'USD', normalBalance: 'credit' });
    aTransaction = await mustPost(
      api,
      a.posterKey,
      transfer('assets:cash', 'income:sales', '700', 'USD', { externalRef: 'shared-ref' }),
    );
  });

  it("tenant B gets 404 NOT_FOUND for A's account (by id and code), entries and transaction", async () => {
    const asB = (path: string) => api.request('GET', path, { key: b.posterKey });
    expectError(await asB(`/v1/accounts/${aCash.id}`), 404, 'NOT_FOUND');
    expectError(await asB(`/v1/accounts/${aCash.id.toUpperCase()}`), 404, 'NOT_FOUND');
    expectError(await asB('/v1/accounts/income:sales'), 404, 'NOT_FOUND');
    expectError(await asB(`/v1/accounts/${aCash.id}/entries`), 404, 'NOT_FOUND');
    expectError(await asB(`/v1/transactions/${aTransaction.id}`), 404, 'NOT_FOUND');
    expectError(await asB(`/v1/transactions?account=${aCash.id}`), 404, 'NOT_FOUND');
    const sameCode = await asB('/v1/accounts/assets:cash');
    expect(sameCode.status).toBe(200);
    expect(sameCode.body.id).not.toBe(aCash.id);
    expect(sameCode.body.balances.posted).toBe('0');
    const byRef = await asB('/v1/transactions?externalRef=shared-ref');
    expect(byRef.body.data).toEqual([]);
    const all = await asB('/v1/transactions');
    expect(all.body.data.map((transaction: { id: string }) => transaction.id)).not.toContain(aTransaction.id);
  });

  it("tenant B cannot post to A's accounts (404 ACCOUNT_NOT_FOUND) and neither ledger changes", async () => {
    await expectNothingWritten(api, a, A_CODES, () =>
      expectNothingWritten(api, b, ['assets:cash', 'income:other'], async () => {
        const byIds = await postTransaction(api, b.posterKey, transfer(aCash.id, 'income:other', '5'));
        expectError(byIds, 404, 'ACCOUNT_NOT_FOUND');
        expect(byIds.body.error.details.accounts).toEqual([aCash.id]);
        expectError(
          await postTransaction(api, b.posterKey, transfer('assets:cash', 'income:sales', '5')),
          404,
          'ACCOUNT_NOT_FOUND',
        );
      }),
    );
  });

  it("a key whose embedded tenant is swapped for A's is 401", async () => {
    expectError(
      await api.request('GET', '/v1/accounts/assets:cash', { key: withTenant(b.posterKey, a.tenantId) }),
      401,
      'UNAUTHENTICATED',
    );
  });

  it('external references and idempotency keys are per tenant', async () => {
    const idempotencyKey = randomUUID();
    const inB = await postTransaction(
      api,
      b.posterKey,
      transfer('assets:cash', 'income:other', '700', 'USD', { externalRef: 'shared-ref' }),
      idempotencyKey,
    );
    expect(inB.status).toBe(201);
    expect(inB.headers.get('ledger-existing')).toBeNull();
    expect(inB.body.id).not.toBe(aTransaction.id);
    const inA = await postTransaction(api, a.posterKey, transfer('assets:cash', 'income:sales', '1'), idempotencyKey);
    expect(inA.status).toBe(201);
    expect(inA.headers.get('idempotent-replayed')).toBeNull();
  });

  it("B's event feed never shows A's events, and A's never shows B's", async () => {
    const aIds = new Set([aCash.id, aTransaction.id]);
    const feedB = await readEventFeed(api, b.posterKey, {
      limit: 2,
      ready: (events) => events.some((event) => event.type === 'transaction.posted'),
    });
    expect(feedB.events.length).toBeGreaterThanOrEqual(2);
    for (const event of feedB.events) {
      expect(event.tenantId).toBe(b.tenantId);
      expect(aIds.has(event.aggregateId)).toBe(false);
      expect(JSON.stringify(event.data)).not.toContain(aCash.id);
    }
    const feedA = await readEventFeed(api, a.posterKey, {
      ready: (events) => events.some((event) => event.aggregateId === aTransaction.id),
    });
    expect(feedA.events.map((event) => event.aggregateId)).toContain(aTransaction.id);
    for (const event of feedA.events) expect(event.tenantId).toBe(a.tenantId);
    // A's cursor handed to B still yields only B's events.
    const crossed = await api.request('GET', `/v1/events?after=${encodeURIComponent(feedA.cursor)}`, {
      key: b.posterKey,
    });
    expect(crossed.status).toBe(200);
    for (const event of crossed.body.data) expect(event.tenantId).toBe(b.tenantId);
  });
});
