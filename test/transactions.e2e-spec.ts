import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import {
  type TestTenant,
  createAccount,
  expectError,
  expectNothingWritten,
  expectValidationError,
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

const DAY_MS = 24 * 3600 * 1000;

async function account(tenant: TestTenant, ref: string) {
  const response = await api.request('GET', `/v1/accounts/${ref}`, { key: tenant.posterKey });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

async function transactionCount(tenant: TestTenant): Promise<number> {
  const rows = await sqlRows<{ n: number }>(api, 'SELECT count(*)::int AS n FROM transactions WHERE tenant_id = $1', [
    tenant.tenantId,
  ]);
  return rows[0]!.n;
}

describe('external references', () => {
  let tenant: TestTenant;
  const CODES = ['assets:cash', 'income:sales'];
  beforeAll(async () => {
    tenant = await setupTenant(api, 'external refs');
    await createAccount(api, tenant.adminKey, { code: 'assets:cash', currency: 'USD', normalBalance: 'debit' });
    await createAccount(api, tenant.adminKey, { code: 'income:sales', currency: 'USD', normalBalance: 'credit' });
  });

  it('the same externalRef and content answers 201 Ledger-Existing with that transaction, posted once', async () => {
    const body = transfer('assets:cash', 'income:sales', '2500', 'USD', {
      externalRef: 'order-1',
      description: 'order 1',
      metadata: { order: 1 },
    });
    const first = await postTransaction(api, tenant.posterKey, body);
    expect(first.status).toBe(201);
    expect(first.headers.get('ledger-existing')).toBeNull();
    // No read replica configured: no read-your-writes token, reads say nothing of where they were served.
    expect(first.headers.get('ledger-consistency')).toBeNull();
    expect(first.body.externalRef).toBe('order-1');
    await expectNothingWritten(api, tenant, CODES, async () => {
      const again = await postTransaction(api, tenant.posterKey, body); // a new Idempotency-Key
      expect(again.status).toBe(201);
      expect(again.headers.get('ledger-existing')).toBe('true');
      expect(again.headers.get('idempotent-replayed')).toBeNull();
      expect(again.body).toEqual(first.body);
    });
    expect((await account(tenant, 'assets:cash')).balances.posted).toBe('2500');
    const read = await api.request('GET', '/v1/accounts/assets:cash', { key: tenant.posterKey });
    expect(read.headers.get('ledger-read-from')).toBeNull();
    const byRef = await api.request('GET', '/v1/transactions?externalRef=order-1', { key: tenant.posterKey });
    expect(byRef.body.data.map((transaction: { id: string }) => transaction.id)).toEqual([first.body.id]);
  });

  it('the same externalRef with other content is 409 EXTERNAL_REF_CONFLICT naming the existing one', async () => {
    const body = transfer('assets:cash', 'income:sales', '100', 'USD', { externalRef: 'order-2' });
    const first = await mustPost(api, tenant.posterKey, body);
    await expectNothingWritten(api, tenant, CODES, async () => {
      for (const other of [
        transfer('assets:cash', 'income:sales', '101', 'USD', { externalRef: 'order-2' }),
        transfer('assets:cash', 'income:sales', '100', 'USD', { externalRef: 'order-2', description: 'changed' }),
        transfer('assets:cash', 'income:sales', '100', 'USD', { externalRef: 'order-2', metadata: { changed: true } }),
      ]) {
        const response = await postTransaction(api, tenant.posterKey, other);
        expectError(response, 409, 'EXTERNAL_REF_CONFLICT');
        expect(response.body.error.details).toMatchObject({ externalRef: 'order-2', transactionId: first.id });
      }
    });
  });

  it('concurrent posts of one externalRef (distinct Idempotency-Keys) post it once', async () => {
    const body = transfer('assets:cash', 'income:sales', '9', 'USD', { externalRef: 'order-race' });
    const countBefore = await transactionCount(tenant);
    const cashBefore = BigInt((await account(tenant, 'assets:cash')).balances.posted);
    const responses = await Promise.all(Array.from({ length: 10 }, () => postTransaction(api, tenant.posterKey, body)));
    for (const response of responses) expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(new Set(responses.map((response) => response.body.id)).size).toBe(1);
    expect(responses.filter((response) => response.headers.get('ledger-existing') === null)).toHaveLength(1);
    expect(await transactionCount(tenant)).toBe(countBefore + 1);
    expect(BigInt((await account(tenant, 'assets:cash')).balances.posted)).toBe(cashBefore + 9n);
  });

  it('a refused posting does not claim its externalRef', async () => {
    const tooMuch = transfer('income:sales', 'assets:cash', '999999999', 'USD', { externalRef: 'order-3' });
    expectError(await postTransaction(api, tenant.posterKey, tooMuch), 422, 'INSUFFICIENT_FUNDS');
    const fine = await postTransaction(
      api,
      tenant.posterKey,
      transfer('assets:cash', 'income:sales', '1', 'USD', { externalRef: 'order-3' }),
    );
    expect(fine.status).toBe(201);
    expect(fine.headers.get('ledger-existing')).toBeNull();
  });
});

describe('currencies, account references and limits', () => {
  let tenant: TestTenant;
  let usdCash: any;
  let eurCash: any;
  const CODES = ['assets:usd', 'income:usd', 'assets:eur', 'income:eur'];
  beforeAll(async () => {
    tenant = await setupTenant(api, 'currencies');
    usdCash = await createAccount(api, tenant.adminKey, {
      code: 'assets:usd',
      currency: 'USD',
      normalBalance: 'debit',
      name: 'Cash USD',
    });
    await createAccount(api, tenant.adminKey, { code: 'income:usd', currency: 'USD', normalBalance: 'credit' });
    eurCash = await createAccount(api, tenant.adminKey, {
      code: 'assets:eur',
      currency: 'EUR',
      normalBalance: 'debit',
    });
    await createAccount(api, tenant.adminKey, { code: 'income:eur', currency: 'EUR', normalBalance: 'credit' });
  });

  it('an account is created with the documented shape and read back by id and by code', async () => {
    expect(usdCash).toMatchObject({
      code: 'assets:usd',
      name: 'Cash USD',
      currency: 'USD',
      normalBalance: 'debit',
      allowNegative: false,
      balances: { posted: '0', pending: '0', available: '0' },
      version: '0',
    });
    expect(usdCash.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await account(tenant, usdCash.id)).toEqual(usdCash);
    expect(await account(tenant, 'assets:usd')).toEqual(usdCash);
    expect(await account(tenant, usdCash.id.toUpperCase())).toEqual(usdCash);
  });

  it('an account with the longest code (128 characters) is read by that code, a trailing slash or not', async () => {
    const code = `assets:${'x'.repeat(121)}`;
    const created = await createAccount(api, tenant.adminKey, { code, currency: 'USD', normalBalance: 'debit' });
    expect(await account(tenant, code)).toEqual(created);
    expect(await account(tenant, `${code.replace(':', '%3A')}/`)).toEqual(created);
  });

  it('a transaction balanced in each currency is accepted', async () => {
    const posted = await postTransaction(api, tenant.posterKey, {
      description: 'fx',
      entries: [
        { account: 'assets:usd', direction: 'debit', amount: '1000', currency: 'USD' },
        { account: 'income:usd', direction: 'credit', amount: '1000', currency: 'USD' },
        { account: 'assets:eur', direction: 'debit', amount: '920', currency: 'EUR' },
        { account: 'income:eur', direction: 'credit', amount: '920', currency: 'EUR' },
      ],
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    expect(posted.body.status).toBe('posted');
    expect(
      posted.body.entries.map((entry: any) => [
        entry.leg,
        entry.accountCode,
        entry.direction,
        entry.amount,
        entry.currency,
      ]),
    ).toEqual([
      [0, 'assets:usd', 'debit', '1000', 'USD'],
      [1, 'income:usd', 'credit', '1000', 'USD'],
      [2, 'assets:eur', 'debit', '920', 'EUR'],
      [3, 'income:eur', 'credit', '920', 'EUR'],
    ]);
    const fetched = await api.request('GET', `/v1/transactions/${posted.body.id}`, { key: tenant.posterKey });
    expect(fetched.body).toEqual(posted.body);
    expect((await account(tenant, 'assets:eur')).balances.posted).toBe('920');
    expect((await account(tenant, 'income:usd')).balances).toEqual({ posted: '1000', pending: '0', available: '1000' });
  });

  it('a transaction balanced overall but not per currency is 422 UNBALANCED', async () => {
    await expectNothingWritten(api, tenant, CODES, async () => {
      const response = await postTransaction(api, tenant.posterKey, {
        entries: [
          { account: 'assets:usd', direction: 'debit', amount: '500', currency: 'USD' },
          { account: 'income:eur', direction: 'credit', amount: '500', currency: 'EUR' },
        ],
      });
      expectError(response, 422, 'UNBALANCED');
      expect(response.body.error.details.currencies).toEqual(
        expect.arrayContaining([
          { currency: 'USD', debitsMinusCredits: '500' },
          { currency: 'EUR', debitsMinusCredits: '-500' },
        ]),
      );
    });
  });

  it('legs may name accounts by id (any case) or by code', async () => {
    const posted = await postTransaction(api, tenant.posterKey, {
      entries: [
        { account: usdCash.id.toUpperCase(), direction: 'debit', amount: '3', currency: 'USD' },
        { account: 'income:usd', direction: 'credit', amount: '3', currency: 'USD' },
      ],
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(201);
    expect(posted.body.entries[0]).toMatchObject({ accountId: usdCash.id, accountCode: 'assets:usd' });
    const byId = await postTransaction(api, tenant.posterKey, transfer(eurCash.id, 'income:eur', '4', 'EUR'));
    expect(byId.status).toBe(201);
    expect((await account(tenant, eurCash.id)).version).toBe('2');
  });

  it('exactly 100 legs are accepted', async () => {
    const codes = Array.from({ length: 99 }, (_, index) => `income:leg:${index}`);
    for (let start = 0; start < codes.length; start += 20) {
      await Promise.all(
        codes
          .slice(start, start + 20)
          .map((code) => createAccount(api, tenant.adminKey, { code, currency: 'USD', normalBalance: 'credit' })),
      );
    }
    const entries = [
      { account: 'assets:usd', direction: 'debit', amount: '99', currency: 'USD' },
      ...codes.map((code) => ({ account: code, direction: 'credit', amount: '1', currency: 'USD' })),
    ];
    const posted = await postTransaction(api, tenant.posterKey, { entries });
    expect(posted.status, JSON.stringify(posted.body).slice(0, 300)).toBe(201);
    expect(posted.body.entries).toHaveLength(100);
    expect((await account(tenant, 'income:leg:98')).balances.posted).toBe('1');
  });
});

describe('concurrent postings', () => {
  it('never overdraw a constrained account and do not deadlock on opposite transfers', async () => {
    const tenant = await setupTenant(api, 'concurrency');
    await createAccount(api, tenant.adminKey, { code: 'assets:wallet', currency: 'USD', normalBalance: 'debit' });
    await createAccount(api, tenant.adminKey, { code: 'assets:other', currency: 'USD', normalBalance: 'debit' });
    await createAccount(api, tenant.adminKey, {
      code: 'equity:seed',
      currency: 'USD',
      normalBalance: 'credit',
      allowNegative: true,
    });
    await mustPost(api, tenant.posterKey, transfer('assets:wallet', 'equity:seed', '100'));
    await mustPost(api, tenant.posterKey, transfer('assets:other', 'equity:seed', '1000'));
    // Ten withdrawals of 30 from 100: exactly three fit.
    const withdrawals = await Promise.all(
      Array.from({ length: 10 }, () =>
        postTransaction(api, tenant.posterKey, transfer('equity:seed', 'assets:wallet', '30')),
      ),
    );
    expect(withdrawals.filter((response) => response.status === 201)).toHaveLength(3);
    for (const response of withdrawals.filter((response) => response.status !== 201))
      expectError(response, 422, 'INSUFFICIENT_FUNDS');
    expect((await account(tenant, 'assets:wallet')).balances).toEqual({ posted: '10', pending: '0', available: '10' });
    // Opposite directions between the same two accounts, all at once.
    const swaps = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        postTransaction(
          api,
          tenant.posterKey,
          index % 2 === 0
            ? transfer('assets:wallet', 'assets:other', '1')
            : transfer('assets:other', 'assets:wallet', '1'),
        ),
      ),
    );
    for (const response of swaps) expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect((await account(tenant, 'assets:wallet')).balances.posted).toBe('10');
    expect((await account(tenant, 'assets:other')).balances.posted).toBe('1000');
    expect((await account(tenant, 'assets:other')).version).toBe('21');
  });
});

describe('effectiveAt window', () => {
  let tenant: TestTenant;
  const CODES = ['assets:cash', 'income:sales'];
  beforeAll(async () => {
    tenant = await setupTenant(api, 'effective at');
    await createAccount(api, tenant.adminKey, { code: 'assets:cash', currency: 'USD', normalBalance: 'debit' });
    await createAccount(api, tenant.adminKey, { code: 'income:sales', currency: 'USD', normalBalance: 'credit' });
  });

  it('older than 30 days, or beyond the allowed clock skew in the future, is 400 naming effectiveAt', async () => {
    await expectNothingWritten(api, tenant, CODES, async () => {
      for (const effectiveAt of [
        new Date(Date.now() - 31 * DAY_MS).toISOString(),
        new Date(Date.now() - 365 * DAY_MS).toISOString(),
        new Date(Date.now() + 3600 * 1000).toISOString(),
      ]) {
        expectValidationError(
          await postTransaction(
            api,
            tenant.posterKey,
            transfer('assets:cash', 'income:sales', '1', 'USD', { effectiveAt }),
          ),
          'effectiveAt',
        );
      }
    });
  });

  it('a back-dated effectiveAt inside the window is kept; without one it is the posting time', async () => {
    const effectiveAt = new Date(Date.now() - 29 * DAY_MS);
    const backdated = await postTransaction(
      api,
      tenant.posterKey,
      transfer('assets:cash', 'income:sales', '1', 'USD', { effectiveAt: effectiveAt.toISOString() }),
    );
    expect(backdated.status, JSON.stringify(backdated.body)).toBe(201);
    expect(new Date(backdated.body.effectiveAt).getTime()).toBe(effectiveAt.getTime());
    const yesterday = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);
    const withOffset = await postTransaction(
      api,
      tenant.posterKey,
      transfer('assets:cash', 'income:sales', '1', 'USD', { effectiveAt: `${yesterday}T12:00:00+02:00` }),
    );
    expect(withOffset.status, JSON.stringify(withOffset.body)).toBe(201);
    expect(withOffset.body.effectiveAt).toBe(`${yesterday}T10:00:00.000Z`);
    const now = await mustPost(api, tenant.posterKey, transfer('assets:cash', 'income:sales', '1'));
    expect(Math.abs(new Date(now.effectiveAt).getTime() - new Date(now.createdAt).getTime())).toBeLessThan(1000);
    const entries = await api.request('GET', '/v1/accounts/assets:cash/entries', { key: tenant.posterKey });
    expect(entries.body.data.at(-1).effectiveAt).toBe(backdated.body.effectiveAt);
  });
});

describe('unknown transaction ids', () => {
  it('are 404 NOT_FOUND', async () => {
    const tenant = await setupTenant(api, 'unknown ids');
    expectError(
      await api.request('GET', `/v1/transactions/${randomUUID()}`, { key: tenant.posterKey }),
      404,
      'NOT_FOUND',
    );
  });
});
