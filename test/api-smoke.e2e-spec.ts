import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';

describe('API smoke', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it('creates a tenant, accounts, and posts a transfer', async () => {
    const { adminKey } = await api.createTenant();
    for (const code of ['assets:cash', 'income:sales']) {
      const created = await api.request('POST', '/v1/accounts', {
        key: adminKey,
        idempotencyKey: randomUUID(),
        body: { code, currency: 'EUR', normalBalance: code.startsWith('assets') ? 'debit' : 'credit' },
      });
      expect(created.status).toBe(201);
    }
    const poster = await api.request('POST', '/v1/api-keys', {
      key: adminKey,
      idempotencyKey: randomUUID(),
      body: { name: 'poster', roles: ['poster'] },
    });
    expect(poster.status).toBe(201);
    const posted = await api.request('POST', '/v1/transactions', {
      key: poster.body.key,
      idempotencyKey: randomUUID(),
      body: {
        entries: [
          { account: 'assets:cash', direction: 'debit', amount: '1050', currency: 'EUR' },
          { account: 'income:sales', direction: 'credit', amount: '1050', currency: 'EUR' },
        ],
      },
    });
    expect(posted.status).toBe(201);
    const cash = await api.request('GET', '/v1/accounts/assets:cash', { key: poster.body.key });
    expect(cash.body.balances).toEqual({ posted: '1050', pending: '0', available: '1050' });
    // No route answers a conditional request, so no answer is hashed to make an ETag.
    expect([posted.headers.get('etag'), cash.headers.get('etag')]).toEqual([null, null]);
  });
});
