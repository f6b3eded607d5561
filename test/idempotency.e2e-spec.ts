import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import {
  type TestTenant,
  createAccount,
  createApiKey,
  expectError,
  expectNothingWritten,
  mustPost,
  postTransaction,
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

const CODES = ['assets:cash', 'income:sales', 'assets:empty'];

async function setupLedger(name: string): Promise<TestTenant> {
  const tenant = await setupTenant(api, name);
  await createAccount(api, tenant.adminKey, { code: 'assets:cash', currency: 'USD', normalBalance: 'debit' });
  await createAccount(api, tenant.adminKey, { code: 'income:sales', currency: 'USD', normalBalance: 'credit' });
  await createAccount(api, tenant.adminKey, { code: 'assets:empty', currency: 'USD', normalBalance: 'debit' });
  return tenant;
}

async function postedBalance(tenant: TestTenant, code: string): Promise<string> {
  const account = await api.request('GET', `/v1/accounts/${code}`, { key: tenant.posterKey });
  expect(account.status).toBe(200);
  return account.body.balances.posted;
}

async function transactionCount(tenant: TestTenant): Promise<number> {
  const rows = await sqlRows<{ n: number }>(api, 'SELECT count(*)::int AS n FROM transactions WHERE tenant_id = $1', [
    tenant.tenantId,
  ]);
  return rows[0]!.n;
}

async function keyRow(tenant: TestTenant, key: string) {
  const rows = await sqlRows<{ state: string; response_status: number; body: string; expires_in_s: number }>(
    api,
    `SELECT state, response_status, response_body::text AS body,
            extract(epoch FROM expires_at - now())::float8 AS expires_in_s
       FROM idempotency_keys WHERE tenant_id = $1 AND key = $2`,
    [tenant.tenantId, key],
  );
  return rows[0];
}

describe('idempotency keys on POST /v1/transactions', () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await setupLedger('idempotency');
  });

  it('the same key and body replays the stored answer with Idempotent-Replayed: true and posts once', async () => {
    const key = randomUUID();
    const body = transfer('assets:cash', 'income:sales', '1234', 'USD', {
      description: 'once',
      metadata: { a: 1, b: { c: 2 } },
    });
    const countBefore = await transactionCount(tenant);
    const first = await postTransaction(api, tenant.posterKey, body, key);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const row = await keyRow(tenant, key);
    expect(row).toMatchObject({ state: 'completed', response_status: 201 });
    expect(row!.expires_in_s).toBeGreaterThan(24 * 3600 - 120);
    expect(row!.expires_in_s).toBeLessThanOrEqual(24 * 3600 + 5);

    // The same content with keys in another order is the same request.
    const reordered = {
      metadata: { b: { c: 2 }, a: 1 },
      entries: body.entries.map((leg) => ({
        currency: leg.currency,
        amount: leg.amount,
        direction: leg.direction,
        account: leg.account,
      })),
      description: 'once',
    };
    for (const again of [body, reordered, body]) {
      const replay = await postTransaction(api, tenant.posterKey, again, key);
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(first.body);
    }
    expect(await transactionCount(tenant)).toBe(countBefore + 1);
    expect(await postedBalance(tenant, 'assets:cash')).toBe('1234');
    const listed = await api.request('GET', '/v1/transactions?limit=200', { key: tenant.posterKey });
    expect(listed.body.data.filter((transaction: { id: string }) => transaction.id === first.body.id)).toHaveLength(1);
  });

  it('the same key with another body or another path is 422 IDEMPOTENCY_KEY_REUSED and writes nothing', async () => {
    const key = randomUUID();
    expect(
      (await postTransaction(api, tenant.posterKey, transfer('assets:cash', 'income:sales', '10'), key)).status,
    ).toBe(201);
    await expectNothingWritten(api, tenant, CODES, async () => {
      const otherAmount = await postTransaction(
        api,
        tenant.posterKey,
        transfer('assets:cash', 'income:sales', '11'),
        key,
      );
      expectError(otherAmount, 422, 'IDEMPOTENCY_KEY_REUSED');
      expect(otherAmount.headers.get('idempotent-replayed')).toBeNull();
      const otherField = await postTransaction(
        api,
        tenant.posterKey,
        transfer('assets:cash', 'income:sales', '10', 'USD', { description: 'x' }),
        key,
      );
      expectError(otherField, 422, 'IDEMPOTENCY_KEY_REUSED');
      const otherPath = await api.request('POST', '/v1/accounts', {
        key: tenant.adminKey,
        idempotencyKey: key,
        body: { code: 'assets:other', currency: 'USD', normalBalance: 'debit' },
      });
      expectError(otherPath, 422, 'IDEMPOTENCY_KEY_REUSED');
    });
    // The reuse attempts did not overwrite the stored answer.
    expect(
      (await postTransaction(api, tenant.posterKey, transfer('assets:cash', 'income:sales', '10'), key)).headers.get(
        'idempotent-replayed',
      ),
    ).toBe('true');
  });

  it('a 4xx outcome is stored and replayed, even after the account is funded', async () => {
    const key = randomUUID();
    const body = transfer('income:sales', 'assets:empty', '500');
    const refused = await postTransaction(api, tenant.posterKey, body, key);
    expectError(refused, 422, 'INSUFFICIENT_FUNDS');
    expect(refused.headers.get('idempotent-replayed')).toBeNull();
    expect(await keyRow(tenant, key)).toMatchObject({ state: 'failed', response_status: 422 });

    await mustPost(api, tenant.posterKey, transfer('assets:empty', 'income:sales', '1000'));
    await expectNothingWritten(api, tenant, CODES, async () => {
      const replay = await postTransaction(api, tenant.posterKey, body, key);
      expectError(replay, 422, 'INSUFFICIENT_FUNDS');
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body).toEqual(refused.body);
    });
    const fresh = await postTransaction(api, tenant.posterKey, body, randomUUID());
    expect(fresh.status).toBe(201);
    expect(await postedBalance(tenant, 'assets:empty')).toBe('500');
  });

  it('keys belong to the tenant, not to the API key that used them', async () => {
    const otherPoster = await createApiKey(api, tenant.adminKey, ['poster'], 'second poster');
    const key = randomUUID();
    const body = transfer('assets:cash', 'income:sales', '3');
    const first = await postTransaction(api, tenant.posterKey, body, key);
    expect(first.status).toBe(201);
    const viaOther = await postTransaction(api, otherPoster, body, key);
    expect(viaOther.status).toBe(201);
    expect(viaOther.headers.get('idempotent-replayed')).toBe('true');
    expect(viaOther.body.id).toBe(first.body.id);
  });

  it('a validation failure is stored and replayed too', async () => {
    const key = randomUUID();
    const body = transfer('assets:cash', 'income:sales', '1.5');
    const refused = await postTransaction(api, tenant.posterKey, body, key);
    expectError(refused, 400, 'VALIDATION_FAILED');
    const replay = await postTransaction(api, tenant.posterKey, body, key);
    expectError(replay, 400, 'VALIDATION_FAILED');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(refused.body);
  });

  it('20 concurrent requests with one key post exactly one transaction', async () => {
    const key = randomUUID();
    const body = transfer('assets:cash', 'income:sales', '77', 'USD', { description: 'race' });
    const cashBefore = BigInt(await postedBalance(tenant, 'assets:cash'));
    const countBefore = await transactionCount(tenant);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => postTransaction(api, tenant.posterKey, body, key)),
    );
    const created = responses.filter((response) => response.status === 201);
    for (const response of responses) {
      if (response.status === 201) continue;
      expectError(response, 409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
    }
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((response) => response.body.id)).size).toBe(1);
    expect(created.filter((response) => response.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    expect(await transactionCount(tenant)).toBe(countBefore + 1);
    expect(BigInt(await postedBalance(tenant, 'assets:cash'))).toBe(cashBefore + 77n);
    const settled = await postTransaction(api, tenant.posterKey, body, key);
    expect(settled.status).toBe(201);
    expect(settled.headers.get('idempotent-replayed')).toBe('true');
    expect(settled.body.id).toBe(created[0]!.body.id);
  });

  it('a finished request retried while another retry holds the key is replayed, not told it is running', async () => {
    const key = randomUUID();
    const body = transfer('assets:cash', 'income:sales', '5', 'USD', { description: 'replayed under lock' });
    const first = await postTransaction(api, tenant.posterKey, body, key);
    expect(first.status).toBe(201);
    // Another retry of the same finished request, caught while it holds the key's lock (it claims the key
    // as every request does, and its transaction stays open here).
    await api.db.database.sql.transaction('read committed', async (tx) => {
      const [claim] = await tx.query<{ state: string }>('SELECT * FROM ledger_claim_idempotency_key($1, $2)', [
        tenant.tenantId,
        key,
      ]);
      expect(claim!.state).toBe('completed');
      const retry = await postTransaction(api, tenant.posterKey, body, key);
      expect(retry.status, JSON.stringify(retry.body)).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(retry.body).toEqual(first.body);
    });
    // A key with no outcome yet is still in progress while its lock is held.
    const running = randomUUID();
    await api.db.database.sql.transaction('read committed', async (tx) => {
      await tx.query('SELECT * FROM ledger_claim_idempotency_key($1, $2)', [tenant.tenantId, running]);
      expectError(await postTransaction(api, tenant.posterKey, body, running), 409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
    });
  });

  it('an expired key executes again', async () => {
    const key = randomUUID();
    const body = transfer('assets:cash', 'income:sales', '5', 'USD', { description: 'expiring' });
    const cashBefore = BigInt(await postedBalance(tenant, 'assets:cash'));
    const first = await postTransaction(api, tenant.posterKey, body, key);
    expect(first.status).toBe(201);
    await sqlRows(
      api,
      `UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE tenant_id = $1 AND key = $2`,
      [tenant.tenantId, key],
    );
    const second = await postTransaction(api, tenant.posterKey, body, key);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.id).not.toBe(first.body.id);
    expect(BigInt(await postedBalance(tenant, 'assets:cash'))).toBe(cashBefore + 10n);
    expect((await keyRow(tenant, key))!.expires_in_s).toBeGreaterThan(24 * 3600 - 120);
    // ...and is then live again: a third call replays the second answer.
    const third = await postTransaction(api, tenant.posterKey, body, key);
    expect(third.headers.get('idempotent-replayed')).toBe('true');
    expect(third.body.id).toBe(second.body.id);
    // An expired key may also be reused for a different request.
    await sqlRows(
      api,
      `UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE tenant_id = $1 AND key = $2`,
      [tenant.tenantId, key],
    );
    expect(
      (await postTransaction(api, tenant.posterKey, transfer('assets:cash', 'income:sales', '6'), key)).status,
    ).toBe(201);
  });
});

describe('idempotency keys across tenants and other endpoints', () => {
  it('the same key in two tenants executes in both', async () => {
    const [one, two] = [await setupLedger('tenant one'), await setupLedger('tenant two')];
    const key = randomUUID();
    const body = transfer('assets:cash', 'income:sales', '300');
    const inOne = await postTransaction(api, one.posterKey, body, key);
    const inTwo = await postTransaction(api, two.posterKey, body, key);
    for (const response of [inOne, inTwo]) {
      expect(response.status).toBe(201);
      expect(response.headers.get('idempotent-replayed')).toBeNull();
    }
    expect(inOne.body.id).not.toBe(inTwo.body.id);
    expect(await postedBalance(one, 'assets:cash')).toBe('300');
    expect(await postedBalance(two, 'assets:cash')).toBe('300');
  });

  it('POST /v1/accounts replays instead of answering ACCOUNT_CODE_CONFLICT', async () => {
    const tenant = await setupTenant(api, 'accounts replay');
    const key = randomUUID();
    const body = { code: 'assets:replayed', currency: 'JPY', normalBalance: 'debit' };
    const first = await api.request('POST', '/v1/accounts', { key: tenant.adminKey, idempotencyKey: key, body });
    expect(first.status).toBe(201);
    const replay = await api.request('POST', '/v1/accounts', { key: tenant.adminKey, idempotencyKey: key, body });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const rows = await sqlRows<{ n: number }>(
      api,
      'SELECT count(*)::int AS n FROM outbox_events WHERE tenant_id = $1 AND type = $2',
      [tenant.tenantId, 'account.created'],
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('POST /v1/api-keys replays with the key redacted and never stores the plaintext', async () => {
    const tenant = await setupTenant(api, 'keys replay');
    const idempotencyKey = randomUUID();
    const body = { name: 'ci poster', roles: ['poster'] };
    const first = await api.request('POST', '/v1/api-keys', { key: tenant.adminKey, idempotencyKey, body });
    expect(first.status).toBe(201);
    expect(first.body.key).toMatch(/^ldg_/);
    expect(first.body.roles).toEqual(['poster']);
    const replay = await api.request('POST', '/v1/api-keys', { key: tenant.adminKey, idempotencyKey, body });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual({ ...first.body, key: '[shown once]' });

    const row = await keyRow(tenant, idempotencyKey);
    expect(row).toBeDefined();
    expect(row!.body).not.toContain(first.body.key);
    expect(row!.body).not.toContain(first.body.key.slice('ldg_'.length));
    const anywhere = await sqlRows<{ n: number }>(
      api,
      `SELECT count(*)::int AS n FROM idempotency_keys
        WHERE strpos(response_body::text, $1) > 0 OR strpos(response_body::text, $2) > 0`,
      [first.body.key.slice(4), tenant.adminKey.slice(4)],
    );
    expect(anywhere[0]!.n).toBe(0);
    const keyCount = await sqlRows<{ n: number }>(api, 'SELECT count(*)::int AS n FROM api_keys WHERE tenant_id = $1', [
      tenant.tenantId,
    ]);
    expect(keyCount[0]!.n).toBe(3); // initial admin, the setup poster, this one: created once
    // The key shown once works; the redacted text does not.
    expect((await api.request('GET', '/v1/transactions', { key: first.body.key })).status).toBe(200);
    expect((await api.request('GET', '/v1/transactions', { key: '[shown once]' })).status).toBe(401);
  });
});
