import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostTransactionUseCase, postTransactionSchema } from '@ledger/ledger';
import { whileAccountHeld } from '../libs/ledger/test/account-lock-holder';
import { PostingRepository } from '../libs/ledger/src/transactions/posting.repository';
import { type ApiHarness, type ApiResponse, TEST_OPERATOR_TOKEN, startApi } from './support/api-harness';
import {
  DAY_MS,
  type TestTenant,
  createAccount,
  expectError,
  expectNothingWritten,
  expectValidationError,
  getAccount,
  getTransaction,
  isoFromNow,
  mustPost,
  postWithKey,
  readEventFeed,
  seededTenant,
  sqlRows,
  transfer,
  walletAndShop,
} from './support/ledger-fixtures';

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

const newTenant = (name: string) => seededTenant(api, name);

const accounts = (tenant: TestTenant) => walletAndShop(api, tenant);

const batch = (tenant: TestTenant, transactions: unknown, idempotencyKey?: string) =>
  postWithKey(api, tenant.posterKey, '/v1/transactions/batch', { transactions }, idempotencyKey);

async function transactionCount(tenant: TestTenant): Promise<number> {
  return (
    await sqlRows<{ n: number }>(api, 'SELECT count(*)::int AS n FROM transactions WHERE tenant_id = $1', [
      tenant.tenantId,
    ])
  )[0]!.n;
}

function outcomes(response: ApiResponse) {
  expect(response.status, JSON.stringify(response.body).slice(0, 800)).toBe(201);
  return response.body.results.map((result: any) => [result.index, result.status, result.error?.code]);
}

describe('a batch of mixed items', () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await newTenant('batch mixed');
  });

  it('one result per item in input order; each item stands or falls alone and sees the ones before', async () => {
    const { wallet, shop } = await accounts(tenant);
    const before = await transactionCount(tenant);
    const response = await batch(tenant, [
      transfer('equity:seed', wallet, '100', 'USD', { externalRef: `dep-${wallet}` }),
      transfer(wallet, shop, '500'), // more than the wallet holds after item 0
      { entries: [{ account: wallet }] }, // malformed
      transfer(wallet, shop, '60'), // sees item 0
      transfer('equity:seed', wallet, '100', 'USD', { externalRef: `dep-${wallet}` }), // same ref, same content
      transfer('equity:seed', wallet, '999', 'USD', { externalRef: `dep-${wallet}` }), // same ref, other content
      transfer(wallet, shop, '41'), // 40 left
      transfer(wallet, shop, '40'), // exactly what is left
      transfer(wallet, 'liabilities:nowhere', '1'),
      {
        entries: [
          { account: wallet, direction: 'debit', amount: '5', currency: 'USD' },
          { account: shop, direction: 'credit', amount: '4', currency: 'USD' },
        ],
      },
      'not an object',
    ]);
    expect(outcomes(response)).toEqual([
      [0, 'created', undefined],
      [1, 'error', 'INSUFFICIENT_FUNDS'],
      [2, 'error', 'VALIDATION_FAILED'],
      [3, 'created', undefined],
      [4, 'exists', undefined],
      [5, 'error', 'EXTERNAL_REF_CONFLICT'],
      [6, 'error', 'INSUFFICIENT_FUNDS'],
      [7, 'created', undefined],
      [8, 'error', 'ACCOUNT_NOT_FOUND'],
      [9, 'error', 'UNBALANCED'],
      [10, 'error', 'VALIDATION_FAILED'],
    ]);
    const results = response.body.results;
    expect(results[4].transaction).toEqual(results[0].transaction);
    expect(results[5].error.details).toMatchObject({ transactionId: results[0].transaction.id });
    expect(results[6].error.details).toMatchObject({ account: wallet, availableMinor: '40', requiredMinor: '41' });
    const malformedPaths = results[2].error.details.fields.map((field: any) => field.path);
    expect(malformedPaths).toEqual(expect.arrayContaining(['entries.0.direction', 'entries.0.amount']));
    for (const result of results) {
      expect(Object.keys(result).sort()).toEqual(
        result.status === 'error' ? ['error', 'index', 'status'] : ['index', 'status', 'transaction'],
      );
      if (result.status === 'error')
        expect(result.error).toEqual({
          code: expect.any(String),
          message: expect.any(String),
          details: expect.any(Object),
        });
    }
    for (const index of [0, 3, 7])
      expect(await getTransaction(api, tenant.posterKey, results[index].transaction.id)).toEqual(
        results[index].transaction,
      );
    expect(results[3].transaction.entries.map((entry: any) => [entry.accountCode, entry.amount])).toEqual([
      [wallet, '60'],
      [shop, '60'],
    ]);
    expect(await transactionCount(tenant)).toBe(before + 3);
    expect((await getAccount(api, tenant.posterKey, wallet)).balances).toEqual({
      posted: '0',
      pending: '0',
      available: '0',
    });
    expect((await getAccount(api, tenant.posterKey, shop)).balances.posted).toBe('100');
  });

  it('an externalRef posted by an earlier request is "exists" with that transaction', async () => {
    const { wallet } = await accounts(tenant);
    const earlier = await mustPost(
      api,
      tenant.posterKey,
      transfer('equity:seed', wallet, '7', 'USD', { externalRef: `ref-${wallet}` }),
    );
    const response = await batch(tenant, [
      transfer('equity:seed', wallet, '7', 'USD', { externalRef: `ref-${wallet}` }),
      transfer('equity:seed', wallet, '8', 'USD', { externalRef: `ref-${wallet}` }),
    ]);
    expect(outcomes(response)).toEqual([
      [0, 'exists', undefined],
      [1, 'error', 'EXTERNAL_REF_CONFLICT'],
    ]);
    expect(response.body.results[0].transaction).toEqual(earlier);
    expect((await getAccount(api, tenant.posterKey, wallet)).balances.posted).toBe('7');
  });

  it('a hold in a batch reserves funds for the items after it', async () => {
    const { wallet, shop } = await accounts(tenant);
    await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, '100'));
    const response = await batch(tenant, [
      transfer(wallet, shop, '70', 'USD', { pending: { expiresAt: isoFromNow(DAY_MS) } }),
      transfer(wallet, shop, '31'),
      transfer(wallet, shop, '30'),
      transfer(wallet, shop, '1', 'USD', { pending: { expiresAt: isoFromNow(-DAY_MS) } }),
    ]);
    expect(outcomes(response)).toEqual([
      [0, 'created', undefined],
      [1, 'error', 'INSUFFICIENT_FUNDS'],
      [2, 'created', undefined],
      [3, 'error', 'VALIDATION_FAILED'],
    ]);
    const hold = response.body.results[0].transaction;
    expect(hold).toMatchObject({ status: 'pending' });
    expect(hold.entries.every((entry: any) => entry.pending)).toBe(true);
    expect((await getAccount(api, tenant.posterKey, wallet)).balances).toEqual({
      posted: '70',
      pending: '70',
      available: '0',
    });
    expect((await postWithKey(api, tenant.posterKey, `/v1/transactions/${hold.id}/post`)).status).toBe(201);
    expect((await getAccount(api, tenant.posterKey, shop)).balances.posted).toBe('100');
  });

  it('emits one event per created item and none for refused ones', async () => {
    const { wallet, shop } = await accounts(tenant);
    const response = await batch(tenant, [
      transfer('equity:seed', wallet, '10'),
      transfer(wallet, shop, '11'),
      transfer(wallet, shop, '10'),
    ]);
    const created = response.body.results
      .filter((result: any) => result.status === 'created')
      .map((result: any) => result.transaction.id);
    expect(created).toHaveLength(2);
    const { events } = await readEventFeed(api, tenant.posterKey, {
      ready: (all) => all.some((event) => event.aggregateId === created[1]),
    });
    const mine = events.filter((event) =>
      event.data?.transaction?.entries?.some((entry: any) => entry.accountCode === wallet),
    );
    expect(mine.map((event) => [event.type, event.aggregateId])).toEqual(
      created.map((id: string) => ['transaction.posted', id]),
    );
  });
});

describe('the batch as a whole', () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await newTenant('batch whole');
  });

  it('is idempotent: a replay answers the same results and posts nothing new', async () => {
    const { wallet, shop, codes } = await accounts(tenant);
    const key = randomUUID();
    const items = [transfer('equity:seed', wallet, '50'), transfer(wallet, shop, '80'), transfer(wallet, shop, '20')];
    const first = await batch(tenant, items, key);
    expect(outcomes(first)).toEqual([
      [0, 'created', undefined],
      [1, 'error', 'INSUFFICIENT_FUNDS'],
      [2, 'created', undefined],
    ]);
    await expectNothingWritten(api, tenant, codes, async () => {
      const again = await batch(tenant, items, key);
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
      expectError(await batch(tenant, [transfer('equity:seed', wallet, '51')], key), 422, 'IDEMPOTENCY_KEY_REUSED');
    });
    expect((await getAccount(api, tenant.posterKey, wallet)).balances.posted).toBe('30');
  });

  it('answers a batch of invalid items only with their errors, writes nothing, and replays it', async () => {
    const { codes } = await accounts(tenant);
    const key = randomUUID();
    const items = [{ entries: [] }, { description: 'no entries' }];
    await expectNothingWritten(api, tenant, codes, async () => {
      const first = await batch(tenant, items, key);
      expect(first.status).toBe(201);
      expect(outcomes(first)).toEqual([
        [0, 'error', 'VALIDATION_FAILED'],
        [1, 'error', 'VALIDATION_FAILED'],
      ]);
      const again = await batch(tenant, items, key);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
    });
  });

  it('racing requests with one key post the batch once: the others replay it or hear it is in progress', async () => {
    const { wallet, shop } = await accounts(tenant);
    const key = randomUUID();
    const items = [transfer('equity:seed', wallet, '10'), transfer(wallet, shop, '4')];
    const before = await transactionCount(tenant);
    const answers = await Promise.all(Array.from({ length: 8 }, () => batch(tenant, items, key)));
    const posted = answers.filter((answer) => answer.status === 201 && !answer.headers.get('idempotent-replayed'));
    expect(posted).toHaveLength(1);
    for (const answer of answers) {
      if (answer.status === 201) expect(answer.body).toEqual(posted[0]!.body);
      else expectError(answer, 409, 'IDEMPOTENCY_KEY_IN_PROGRESS');
    }
    expect(await transactionCount(tenant)).toBe(before + 2);
  });

  it('more than 1000 items, none, or no list at all is 400 and writes nothing', async () => {
    const { wallet, codes } = await accounts(tenant);
    const item = transfer('equity:seed', wallet, '1');
    await expectNothingWritten(api, tenant, codes, async () => {
      expectValidationError(
        await batch(
          tenant,
          Array.from({ length: 1001 }, () => item),
        ),
        'transactions',
      );
      expectValidationError(await batch(tenant, []), 'transactions');
      expectValidationError(await batch(tenant, item), 'transactions');
      expectValidationError(await postWithKey(api, tenant.posterKey, '/v1/transactions/batch', {}), 'transactions');
      const extra = await postWithKey(api, tenant.posterKey, '/v1/transactions/batch', {
        transactions: [item],
        atomic: true,
      });
      expectError(extra, 400, 'VALIDATION_FAILED');
      expect(JSON.stringify(extra.body.error.details)).toContain('atomic');
      expectError(
        await api.request('POST', '/v1/transactions/batch', { key: tenant.posterKey, body: { transactions: [item] } }),
        400,
        'IDEMPOTENCY_KEY_MISSING',
      );
    });
  });

  it('a batch needs the poster role', async () => {
    const { wallet, codes } = await accounts(tenant);
    await expectNothingWritten(api, tenant, codes, async () => {
      const response = await postWithKey(api, tenant.adminKey, '/v1/transactions/batch', {
        transactions: [transfer('equity:seed', wallet, '1')],
      });
      expectError(response, 403, 'FORBIDDEN');
    });
  });

  it('1000 items are all created, chained in order in the journal', async () => {
    const { wallet } = await accounts(tenant);
    const key = randomUUID();
    const items = Array.from({ length: 1000 }, (_, index) => transfer('equity:seed', wallet, String(index + 1)));
    const response = await batch(tenant, items, key);
    const results = response.body.results;
    expect(response.status).toBe(201);
    expect(results).toHaveLength(1000);
    results.forEach((result: any, index: number) => {
      expect(result.index).toBe(index);
      expect(result.status).toBe('created');
      expect(result.transaction.entries[1].amount).toBe(String(index + 1));
      expect(result.transaction.journal.hash).toMatch(/^[0-9a-f]{64}$/);
    });
    const byStripe = new Map<number, bigint[]>();
    for (const result of results)
      byStripe.set(result.transaction.journal.stripe, [
        ...(byStripe.get(result.transaction.journal.stripe) ?? []),
        BigInt(result.transaction.journal.seq),
      ]);
    for (const seqs of byStripe.values())
      for (let index = 1; index < seqs.length; index++) expect(seqs[index]).toBeGreaterThan(seqs[index - 1]!);
    expect(new Set(results.map((result: any) => result.transaction.journal.hash)).size).toBe(1000);
    expect((await getAccount(api, tenant.posterKey, wallet)).balances.posted).toBe(String((1000 * 1001) / 2));
    expect((await getAccount(api, tenant.posterKey, wallet)).version).toBe('1000');
    // The stored answer is compressed (lz4) and replays exactly as it was first sent.
    const [stored] = await sqlRows<{ compression: string | null; stored: number; raw: number }>(
      api,
      `SELECT pg_column_compression(response_body) AS compression, pg_column_size(response_body) AS stored,
              octet_length(response_body::text) AS raw
         FROM idempotency_keys WHERE tenant_id = $1 AND key = $2`,
      [tenant.tenantId, key],
    );
    expect(stored!.compression).toBe('lz4');
    expect(stored!.stored).toBeLessThan(stored!.raw / 2);
    const again = await batch(tenant, items, key);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(response.body);
  });

  it('concurrent batches moving money both ways between two accounts all succeed without deadlock', async () => {
    const { wallet, shop } = await accounts(tenant);
    await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, '1000'));
    await mustPost(api, tenant.posterKey, transfer('equity:seed', shop, '1000'));
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        batch(
          tenant,
          Array.from({ length: 50 }, (_, item) =>
            (index + item) % 2 === 0 ? transfer(wallet, shop, '3') : transfer(shop, wallet, '3'),
          ),
        ),
      ),
    );
    for (const response of responses)
      expect(outcomes(response).every(([, status]: [number, string]) => status === 'created')).toBe(true);
    expect((await getAccount(api, tenant.posterKey, wallet)).balances.posted).toBe('1000');
    expect((await getAccount(api, tenant.posterKey, shop)).balances.posted).toBe('1000');
    expect((await getAccount(api, tenant.posterKey, wallet)).version).toBe('301');
  });

  it('a keyed batch whose account moved before its locks is planned again, answered and stored once', async () => {
    const { wallet, shop, codes } = await accounts(tenant);
    const sink = `${wallet}:sink`;
    await createAccount(api, tenant.adminKey, { code: sink, currency: 'USD', normalBalance: 'credit' });
    await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, '100'));
    const key = randomUUID();
    // Read: 100, where both payouts pass. Locked: 50, where only the second does.
    const items = [transfer(wallet, shop, '80'), transfer(wallet, shop, '10')];
    const first = await whileAccountHeld(api.db.database, {
      lockAccount: () => api.app.get(PostingRepository).lockForPosting(tenant.tenantId, [wallet]),
      start: () => batch(tenant, items, key),
      meanwhile: () =>
        api.app.get(PostTransactionUseCase).execute({
          tenantId: tenant.tenantId,
          actor: 'test',
          request: postTransactionSchema.parse(transfer(wallet, sink, '50')),
        }),
    });
    expect(outcomes(first)).toEqual([
      [0, 'error', 'INSUFFICIENT_FUNDS'],
      [1, 'created', undefined],
    ]);
    expect((await getAccount(api, tenant.posterKey, wallet)).balances.posted).toBe('40');
    await expectNothingWritten(api, tenant, codes, async () => {
      const again = await batch(tenant, items, key);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(first.body);
    });
    // The operator sees how often batches are planned twice.
    const metrics = await api.request('GET', '/metrics', { key: TEST_OPERATOR_TOKEN });
    expect(metrics.body).toMatch(/^ledger_batches_planned_again_total [1-9]/m);
  });
});
