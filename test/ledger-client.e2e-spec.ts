import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LedgerClient, createLedgerClient, newIdempotencyKey } from '@ledger/client';
import { ApiContract } from './support/api-contract';
import { type ApiHarness, startApi } from './support/api-harness';
import { createAccount, seededTenant } from './support/ledger-fixtures';

// libs/client against the real API on PostgreSQL: its README's example, typed end to end.

let api: ApiHarness;
let ledger: LedgerClient;
const contract = new ApiContract();
const alice = 'liabilities:wallets:alice';
const bob = 'liabilities:wallets:bob';

beforeAll(async () => {
  api = await startApi();
  const tenant = await seededTenant(api, 'client');
  for (const code of [alice, bob])
    await createAccount(api, tenant.adminKey, { code, currency: 'USD', normalBalance: 'credit' });
  ledger = createLedgerClient(api.baseUrl, tenant.posterKey);
  const funded = await ledger.POST('/v1/transactions', {
    params: { header: { 'Idempotency-Key': newIdempotencyKey() } },
    body: {
      entries: [
        { account: 'equity:seed', direction: 'debit', amount: '2000', currency: 'USD' },
        { account: alice, direction: 'credit', amount: '2000', currency: 'USD' },
      ],
    },
  });
  expect(funded.response.status).toBe(201);
});
afterAll(async () => {
  await api?.close();
});

/** The README's example: Alice pays Bob, or is declined for want of funds. */
async function pay(idempotencyKey: string, amount: string) {
  const { data, error, response } = await ledger.POST('/v1/transactions', {
    params: { header: { 'Idempotency-Key': idempotencyKey } },
    body: {
      description: 'Alice pays Bob',
      entries: [
        { account: alice, direction: 'debit', amount, currency: 'USD' },
        { account: bob, direction: 'credit', amount, currency: 'USD' },
      ],
    },
  });
  contract.check('POST', '/v1/transactions', {
    status: response.status,
    headers: response.headers,
    body: data ?? error,
  });
  if (error) {
    if (error.error.code === 'INSUFFICIENT_FUNDS') {
      const { availableMinor, requiredMinor } = error.error.details;
      return { declined: `${availableMinor} available, ${requiredMinor} needed` };
    }
    throw new Error(`${response.status} ${error.error.code}: ${error.error.message}`);
  }
  return { posted: data, replayed: response.headers.get('Idempotent-Replayed') === 'true' };
}

describe('the typed client', () => {
  it('posts with an Idempotency-Key; the same key again replays the first answer', async () => {
    const key = newIdempotencyKey();
    const first = await pay(key, '1500');
    expect(first.posted?.status).toBe('posted');
    expect(first.posted?.entries.map((entry) => entry.amount)).toEqual(['1500', '1500']);
    const again = await pay(key, '1500');
    expect(again).toEqual({ posted: first.posted, replayed: true });
    const { data } = await ledger.GET('/v1/accounts/{account}', { params: { path: { account: alice } } });
    expect(data?.balances.available).toBe('500');
  });

  it('answers INSUFFICIENT_FUNDS as a typed error, and nothing moved', async () => {
    expect(await pay(newIdempotencyKey(), '999')).toEqual({ declined: '500 available, 999 needed' });
    const { data } = await ledger.GET('/v1/accounts/{account}', { params: { path: { account: bob } } });
    expect(data?.balances.posted).toBe('1500');
  });

  it('reads lists with typed query parameters', async () => {
    const { data, error } = await ledger.GET('/v1/transactions', { params: { query: { account: bob, limit: 10 } } });
    expect(error).toBeUndefined();
    expect(data?.data).toHaveLength(1);
    const refused = await ledger.GET('/v1/transactions/{id}', { params: { path: { id: 'not-an-id' } } });
    expect(refused.error?.error.code).toBe('NOT_FOUND');
  });
});
