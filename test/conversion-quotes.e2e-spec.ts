import { randomUUID } from 'node:crypto';
import { verifyProof } from '@ledger/proofs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import {
  type FxCustomer,
  convert,
  createQuote,
  fieldPaths,
  fxCustomer,
  fxTenant,
  mustConvert,
} from './support/conversion-fixtures';
import {
  type TestTenant,
  createApiKey,
  expectError,
  expectNothingWritten,
  expectValidationError,
  getAccount,
  postWithKey,
  sqlRows,
} from './support/ledger-fixtures';

let api: ApiHarness;
let tenant: TestTenant;
beforeAll(async () => {
  api = await startApi();
  tenant = await fxTenant(api, 'fx quotes');
});
afterAll(async () => {
  await api?.close();
});

const eurToUsd = (customer: FxCustomer, amount: string, extra: Record<string, unknown> = {}) => ({
  from: { account: customer.eur, amount, currency: 'EUR' },
  to: { account: customer.usd, currency: 'USD' },
  ...extra,
});

async function mustQuote(rate: string, ttlSeconds: number, from = 'EUR', to = 'USD'): Promise<any> {
  const answer = await createQuote(api, tenant.posterKey, {
    from: { currency: from },
    to: { currency: to },
    rate,
    ttlSeconds,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

async function quoteNow(id: string): Promise<any> {
  const answer = await api.request('GET', `/v1/conversions/quotes/${id}`, { key: tenant.posterKey });
  expect(answer.status).toBe(200);
  return answer.body;
}

describe('quotes', () => {
  it('holds a rate for one conversion; the request that used it replays with its key', async () => {
    const alice = await fxCustomer(api, tenant, '20000');
    const quote = await mustQuote('1.08230', 60);
    expect(quote).toMatchObject({ from: { currency: 'EUR' }, to: { currency: 'USD' }, rate: '1.08230' });
    expect(Date.parse(quote.expiresAt) - Date.parse(quote.createdAt)).toBe(60_000);
    expect(quote.usedByTransactionId).toBeNull();

    const idempotencyKey = randomUUID();
    const request = eurToUsd(alice, '10000', { quoteId: quote.id });
    const used = await convert(api, tenant.posterKey, request, idempotencyKey);
    expect(used.status, JSON.stringify(used.body)).toBe(201);
    expect(used.body).toMatchObject({ rate: '1.08230', toAmount: '10823', quoteId: quote.id });
    expect(used.body.transaction.metadata.conversion.quoteId).toBe(quote.id);
    expect(await quoteNow(quote.id)).toMatchObject({ usedByTransactionId: used.body.transaction.id });

    // The same request with its key: the stored answer. Any other use of the quote: 409, nothing written.
    const replay = await convert(api, tenant.posterKey, request, idempotencyKey);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(used.body);
    const again = await expectNothingWritten(api, tenant, alice.codes, () => convert(api, tenant.posterKey, request));
    expectError(again, 409, 'QUOTE_ALREADY_USED');
    expect(again.body.error.details).toEqual({ quoteId: quote.id, transactionId: used.body.transaction.id });
    expect((await getAccount(api, tenant.posterKey, alice.eur)).balances.posted).toBe('10000');
  });

  it('is used by exactly one of two conversions racing for it', async () => {
    const bob = await fxCustomer(api, tenant, '20000');
    const quote = await mustQuote('1.1', 60);
    const answers = await Promise.all([
      convert(api, tenant.posterKey, eurToUsd(bob, '5000', { quoteId: quote.id })),
      convert(api, tenant.posterKey, eurToUsd(bob, '6000', { quoteId: quote.id })),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    const winner = answers.find((answer) => answer.status === 201)!;
    expectError(answers.find((answer) => answer.status === 409)!, 409, 'QUOTE_ALREADY_USED');
    expect((await quoteNow(quote.id)).usedByTransactionId).toBe(winner.body.transaction.id);
    const eur = BigInt((await getAccount(api, tenant.posterKey, bob.eur)).balances.posted);
    expect(20000n - eur).toBe(BigInt(winner.body.transaction.metadata.conversion.from.amount));
  });

  it('answers 409 QUOTE_EXPIRED after its ttl, replayed under the same key, and stays unused', async () => {
    const carol = await fxCustomer(api, tenant, '10000');
    const quote = await mustQuote('1.08230', 1);
    // Wait until the quote's own expiry has passed, by the clock of this machine (the server's).
    while (Date.now() <= Date.parse(quote.expiresAt) + 50) await new Promise((resolve) => setTimeout(resolve, 100));
    const idempotencyKey = randomUUID();
    const request = eurToUsd(carol, '10000', { quoteId: quote.id });
    const expired = await expectNothingWritten(api, tenant, carol.codes, () =>
      convert(api, tenant.posterKey, request, idempotencyKey),
    );
    expectError(expired, 409, 'QUOTE_EXPIRED');
    expect(expired.body.error.details).toEqual({ quoteId: quote.id, expiresAt: quote.expiresAt });
    const replay = await convert(api, tenant.posterKey, request, idempotencyKey);
    expect(replay.status).toBe(409);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await quoteNow(quote.id)).usedByTransactionId).toBeNull();
  });

  it("refuses a conversion that is not the quote's (currencies, rate); unknown quotes are 404", async () => {
    const dave = await fxCustomer(api, tenant, '10000');
    const quote = await mustQuote('1.08230', 60);
    const toYen = { ...eurToUsd(dave, '100', { quoteId: quote.id }), to: { account: dave.jpy, currency: 'JPY' } };
    const currency = await expectNothingWritten(api, tenant, dave.codes, () => convert(api, tenant.posterKey, toYen));
    expectError(currency, 422, 'QUOTE_MISMATCH');
    expect(fieldPaths(currency)).toEqual(['to.currency']);
    const rate = await convert(api, tenant.posterKey, eurToUsd(dave, '100', { quoteId: quote.id, rate: '1.0824' }));
    expectError(rate, 422, 'QUOTE_MISMATCH');
    expect(fieldPaths(rate)).toEqual(['rate']);
    // The same rate written otherwise is the quote's rate.
    expect(
      (await mustConvert(api, tenant.posterKey, eurToUsd(dave, '100', { quoteId: quote.id, rate: '1.0823' }))).rate,
    ).toBe('1.08230');
    const unknown = await convert(api, tenant.posterKey, eurToUsd(dave, '100', { quoteId: randomUUID() }));
    expectError(unknown, 404, 'NOT_FOUND');
    expect(fieldPaths(unknown)).toEqual(['quoteId']);
    expectValidationError(await convert(api, tenant.posterKey, eurToUsd(dave, '100', { quoteId: 'q-1' })), 'quoteId');
    expectError(await api.request('GET', '/v1/conversions/quotes/q-1', { key: tenant.posterKey }), 404, 'NOT_FOUND');
  });

  it('validates a quote: rate, currencies, ttlSeconds of 1 to 3600', async () => {
    const quote = (patch: Record<string, unknown>) =>
      createQuote(api, tenant.posterKey, {
        from: { currency: 'EUR' },
        to: { currency: 'USD' },
        rate: '1.1',
        ttlSeconds: 30,
        ...patch,
      });
    expectValidationError(await quote({ rate: '0' }), 'rate');
    expectValidationError(await quote({ rate: '1.0000000000001' }), 'rate');
    expectValidationError(await quote({ to: { currency: 'EUR' } }), 'to.currency');
    expectValidationError(await quote({ from: { currency: 'XYZ' } }), 'from.currency');
    expectValidationError(await quote({ ttlSeconds: 0 }), 'ttlSeconds');
    expectValidationError(await quote({ ttlSeconds: 3601 }), 'ttlSeconds');
    expectValidationError(await quote({ ttlSeconds: 1.5 }), 'ttlSeconds');
    expectError(
      await api.request('POST', '/v1/conversions/quotes', { key: tenant.posterKey, body: { rate: '1' } }),
      400,
      'IDEMPOTENCY_KEY_MISSING',
    );
  });
});

describe('GET /v1/conversions/positions', () => {
  it('reports per direction the amounts, the volume-weighted rate and the open position; reversals undo', async () => {
    const desk = await fxTenant(api, 'fx positions');
    const erin = await fxCustomer(api, desk, '100000');
    const convertAt = (amount: string, rate: string) =>
      mustConvert(api, desk.posterKey, { ...eurToUsd(erin, amount), rate });
    await convertAt('10000', '1.08230'); // 100.00 EUR -> 108.23 USD
    await convertAt('5000', '1.09'); // 50.00 EUR -> 54.50 USD
    const undone = await convertAt('2000', '1.1'); // reversed below
    const back = await mustConvert(api, desk.posterKey, {
      from: { account: erin.usd, amount: '1000', currency: 'USD' },
      to: { account: erin.eur, currency: 'EUR' },
      rate: '0.92',
    }); // 10.00 USD -> 9.20 EUR
    expect(back.toAmount).toBe('920');
    const reversal = await postWithKey(api, desk.posterKey, `/v1/transactions/${undone.transaction.id}/reverse`, {});
    expect(reversal.status, JSON.stringify(reversal.body)).toBe(201);

    const report = await api.request('GET', '/v1/conversions/positions', { key: desk.posterKey });
    expect(report.status).toBe(200);
    expect(report.body.pairs).toEqual([
      {
        from: 'EUR',
        to: 'USD',
        conversions: 2,
        bought: '15000',
        sold: '16273',
        rate: '1.08486666667', // 162.73 / 150.00 to 12 digits
        openPosition: { from: '15000', to: '-16273' },
      },
      {
        from: 'USD',
        to: 'EUR',
        conversions: 1,
        bought: '1000',
        sold: '920',
        rate: '0.92',
        openPosition: { from: '1000', to: '-920' },
      },
    ]);
    expect(report.body.currencies).toEqual([
      { currency: 'EUR', account: 'fx:position:EUR', position: '14080' },
      { currency: 'USD', account: 'fx:position:USD', position: '-15273' },
    ]);
    // Any key may read it; another tenant sees its own (empty) report.
    const auditor = await createApiKey(api, desk.adminKey, ['auditor']);
    expect((await api.request('GET', '/v1/conversions/positions', { key: auditor })).body.pairs).toHaveLength(2);
    const other = await api.request('GET', '/v1/conversions/positions', { key: tenant.adminKey });
    expect(other.body.pairs.map((pair: any) => pair.from)).not.toContain('USD');

    // The balance proof covers the position accounts like any other account, negative balances included.
    const issued = await postWithKey(api, auditor, '/v1/proofs/balances', {});
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    for (const [code, balance] of [
      ['fx:position:EUR', '14080'],
      ['fx:position:USD', '-15273'],
    ]) {
      const inclusion = await api.request('GET', `/v1/proofs/balances/${code}?proofId=${issued.body.id}`, {
        key: auditor,
      });
      expect(inclusion.status, JSON.stringify(inclusion.body)).toBe(200);
      expect(inclusion.body.account.balance).toBe(balance);
      expect(verifyProof(inclusion.body, { account: code }).firstFailure).toBeNull();
    }
    const [row] = await sqlRows<{ n: number }>(
      api,
      'SELECT count(*)::int AS n FROM fx_conversions WHERE tenant_id = $1',
      [desk.tenantId],
    );
    expect(row!.n).toBe(4);
  });
});
