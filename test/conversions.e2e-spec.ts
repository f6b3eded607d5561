import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { convert, fieldPaths, fxCustomer, fxTenant, mustConvert } from './support/conversion-fixtures';
import {
  type TestTenant,
  expectError,
  expectNothingWritten,
  expectValidationError,
  getAccount,
  mustPost,
  readEventFeed,
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

const body = (from: string, to: string, amount: string, rate: string, extra: Record<string, unknown> = {}) => ({
  from: { account: from, amount, currency: currencyOf(from) },
  to: { account: to, currency: currencyOf(to) },
  rate,
  ...extra,
});

function currencyOf(code: string): string {
  return code.slice(code.lastIndexOf(':') + 1).toUpperCase();
}

describe('POST /v1/conversions', () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await fxTenant(api, 'fx conversions');
  });

  it('converts 100.00 EUR to 108.23 USD at 1.08230: four entries via position accounts made on first use', async () => {
    const alice = await fxCustomer(api, tenant, '10000');
    const request = body(alice.eur, alice.usd, '10000', '1.08230', { externalRef: 'fx-1042' });
    const idempotencyKey = randomUUID();
    const answer = await convert(api, tenant.posterKey, request, idempotencyKey);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const { transaction, ...figures } = answer.body;
    expect(figures).toEqual({
      rate: '1.08230',
      rounding: 'half-even',
      toAmount: '10823',
      exactToAmount: '10823',
      remainder: '0',
      quoteId: null,
    });
    expect(
      transaction.entries.map((entry: any) => [
        entry.leg,
        entry.accountCode,
        entry.direction,
        entry.amount,
        entry.currency,
      ]),
    ).toEqual([
      [0, alice.eur, 'debit', '10000', 'EUR'],
      [1, 'fx:position:EUR', 'credit', '10000', 'EUR'],
      [2, 'fx:position:USD', 'debit', '10823', 'USD'],
      [3, alice.usd, 'credit', '10823', 'USD'],
    ]);
    expect(transaction.metadata).toEqual({
      conversion: {
        from: { account: alice.eur, currency: 'EUR', amount: '10000' },
        to: { account: alice.usd, currency: 'USD', amount: '10823' },
        rate: '1.08230',
        rounding: 'half-even',
        exactToAmount: '10823',
        remainder: '0',
        quoteId: null,
      },
    });
    expect(transaction.journal.hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await getAccount(api, tenant.posterKey, alice.eur)).balances.posted).toBe('0');
    expect((await getAccount(api, tenant.posterKey, alice.usd)).balances.posted).toBe('10823');
    const eurPosition = await getAccount(api, tenant.posterKey, 'fx:position:EUR');
    expect(eurPosition).toMatchObject({ currency: 'EUR', normalBalance: 'credit', allowNegative: true });
    expect(eurPosition.balances.posted).toBe('10000');
    expect((await getAccount(api, tenant.posterKey, 'fx:position:USD')).balances.posted).toBe('-10823');

    // The same key answers the stored conversion; the same externalRef with the same content answers it too.
    const replay = await convert(api, tenant.posterKey, request, idempotencyKey);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(answer.body);
    const again = await convert(api, tenant.posterKey, request);
    expect(again.status).toBe(201);
    expect(again.headers.get('ledger-existing')).toBe('true');
    expect(again.body).toEqual(answer.body);
    expectError(await convert(api, tenant.posterKey, { ...request, rate: '1.08231' }), 409, 'EXTERNAL_REF_CONFLICT');

    // As any posting: the transaction is in the journal and its event in the feed, with the accounts created.
    const { events } = await readEventFeed(api, tenant.posterKey, {
      ready: (seen) => seen.some((event) => event.data?.transaction?.id === transaction.id),
    });
    expect(events.find((event) => event.data?.transaction?.id === transaction.id)?.type).toBe('transaction.posted');
    const created = events.filter((event) => event.type === 'account.created').map((event) => event.data.account.code);
    expect(created).toEqual(expect.arrayContaining(['fx:position:EUR', 'fx:position:USD']));
  });

  it('rounds as asked and records the remainder: half-even, half-up, down', async () => {
    const bob = await fxCustomer(api, tenant, '1000');
    // 0.15 EUR at 1.5 is 22.5 US cents.
    const at = async (rounding: string) =>
      (await mustConvert(api, tenant.posterKey, body(bob.eur, bob.usd, '15', '1.5', { rounding }))) as any;
    expect(await at('half-even')).toMatchObject({ toAmount: '22', exactToAmount: '22.5', remainder: '0.5' });
    expect(await at('half-up')).toMatchObject({ toAmount: '23', exactToAmount: '22.5', remainder: '-0.5' });
    expect(await at('down')).toMatchObject({ toAmount: '22', remainder: '0.5', rounding: 'down' });
    // Exponents: 1.00 EUR at 161.235 is 161.235 yen, rounded to 161 (JPY has no minor unit).
    const yen = await mustConvert(api, tenant.posterKey, body(bob.eur, bob.jpy, '100', '161.235'));
    expect(yen).toMatchObject({ toAmount: '161', exactToAmount: '161.235', remainder: '0.235' });
    expect(yen.transaction.metadata.conversion.remainder).toBe('0.235');
    expect((await getAccount(api, tenant.posterKey, bob.usd)).balances.posted).toBe('67');
  });

  it('refuses an overdraft of the customer account like any posting, and writes nothing', async () => {
    const carol = await fxCustomer(api, tenant, '5000');
    const refused = await expectNothingWritten(api, tenant, carol.codes, () =>
      convert(api, tenant.posterKey, body(carol.eur, carol.usd, '5001', '1.08230')),
    );
    expectError(refused, 422, 'INSUFFICIENT_FUNDS');
    expect(refused.body.error.details).toMatchObject({ account: carol.eur, availableMinor: '5000' });
  });
});

describe('bad input: each a 400 or 422 naming its field, nothing written', () => {
  let tenant: TestTenant;
  let dave: Awaited<ReturnType<typeof fxCustomer>>;
  beforeAll(async () => {
    // No conversion has happened in this tenant: a refused one must not leave its position accounts behind.
    tenant = await fxTenant(api, 'fx bad input');
    dave = await fxCustomer(api, tenant, '10000');
  });

  async function refused(request: unknown) {
    return expectNothingWritten(api, tenant, dave.codes, () => convert(api, tenant.posterKey, request));
  }

  it('a rate that is not a positive decimal of at most 12 significant digits, or 0', async () => {
    for (const rate of ['abc', '0', '0.000', '-1.08', '1e2', '1.2345678901234', '', ' 1.08', 1.08, null])
      expectValidationError(await refused({ ...body(dave.eur, dave.usd, '100', '1'), rate }), 'rate');
    expectValidationError(
      await refused({ from: body(dave.eur, dave.usd, '1', '1').from, to: { account: dave.usd, currency: 'USD' } }),
      'rate',
    );
  });

  it('the same currency on both sides, an unknown rounding, a position account as a side', async () => {
    expectValidationError(
      await refused({ ...body(dave.eur, dave.usd, '100', '1.1'), to: { account: dave.usd, currency: 'EUR' } }),
      'to.currency',
    );
    expectValidationError(await refused(body(dave.eur, dave.usd, '100', '1.1', { rounding: 'ceiling' })), 'rounding');
    expectValidationError(
      await refused({ ...body(dave.eur, dave.usd, '100', '1.1'), to: { account: 'fx:position:USD', currency: 'USD' } }),
      'to.account',
    );
    expectValidationError(await refused(body(dave.eur, dave.usd, '0', '1.1')), 'from.amount');
  });

  it('a currency the account does not hold: 422 CURRENCY_MISMATCH naming the side', async () => {
    const from = await refused({
      ...body(dave.eur, dave.usd, '100', '1.1'),
      from: { account: dave.eur, amount: '100', currency: 'GBP' },
    });
    expectError(from, 422, 'CURRENCY_MISMATCH');
    expect(fieldPaths(from)).toEqual(['from.currency']);
    const to = await refused({ ...body(dave.eur, dave.usd, '100', '1.1'), to: { account: dave.usd, currency: 'JPY' } });
    expectError(to, 422, 'CURRENCY_MISMATCH');
    expect(fieldPaths(to)).toEqual(['to.currency']);
    const unknown = await refused(body(dave.eur, 'liabilities:nobody:usd', '100', '1.1'));
    expectError(unknown, 404, 'ACCOUNT_NOT_FOUND');
    expect(fieldPaths(unknown)).toEqual(['to.account']);
  });

  it('an amount that rounds to 0 in the target: 422 AMOUNT_ROUNDS_TO_ZERO naming from.amount', async () => {
    // 0.01 EUR at 0.4 is 0.4 yen: 0 however it is rounded, but half-up of 1 cent at 0.005 USD/EUR is 0 too.
    const yen = await refused(body(dave.eur, dave.jpy, '1', '0.4'));
    expectError(yen, 422, 'AMOUNT_ROUNDS_TO_ZERO');
    expect(fieldPaths(yen)).toEqual(['from.amount']);
    expectError(
      await refused(body(dave.eur, dave.usd, '1', '0.49', { rounding: 'half-up' })),
      422,
      'AMOUNT_ROUNDS_TO_ZERO',
    );
    // Refused by the posting engine, after the position accounts were made in its transaction: gone with it.
    expectError(await refused(body(dave.eur, dave.usd, '10001', '1.1')), 422, 'INSUFFICIENT_FUNDS');
    expect(
      (await sqlRows(api, 'SELECT 1 FROM accounts WHERE tenant_id = $1 AND code LIKE $2', [tenant.tenantId, 'fx:%']))
        .length,
    ).toBe(0);
  });
});

describe('two conversions racing on one account', () => {
  it("never overdraw it: of two conversions of the account's last 100.00 EUR, exactly one posts", async () => {
    const tenant = await fxTenant(api, 'fx race');
    for (let round = 0; round < 4; round++) {
      const erin = await fxCustomer(api, tenant, '10000');
      const [first, second] = await Promise.all([
        convert(api, tenant.posterKey, body(erin.eur, erin.usd, '10000', '1.08230')),
        convert(api, tenant.posterKey, body(erin.eur, erin.jpy, '10000', '161.235')),
      ]);
      const statuses = [first.status, second.status].sort();
      expect(statuses, JSON.stringify([first.body, second.body])).toEqual([201, 422]);
      expectError(first.status === 422 ? first : second, 422, 'INSUFFICIENT_FUNDS');
      const eur = await getAccount(api, tenant.posterKey, erin.eur);
      expect(eur.balances.posted).toBe('0');
      const credited =
        BigInt((await getAccount(api, tenant.posterKey, erin.usd)).balances.posted) +
        BigInt((await getAccount(api, tenant.posterKey, erin.jpy)).balances.posted);
      expect([10823n, 16124n]).toContain(credited);
    }
    const rows = await sqlRows<{ n: number }>(
      api,
      'SELECT count(*)::int AS n FROM fx_conversions WHERE tenant_id = $1',
      [tenant.tenantId],
    );
    expect(rows[0]!.n).toBe(4);
    const positions = await sqlRows<{ code: string }>(
      api,
      'SELECT code FROM accounts WHERE tenant_id = $1 AND code LIKE $2 ORDER BY code',
      [tenant.tenantId, 'fx:position:%'],
    );
    expect(positions.map((row) => row.code).filter((code) => code === 'fx:position:EUR')).toHaveLength(1);
  });
});

describe('first conversions of opposite directions at once', () => {
  it('make each position account once, without deadlock, and every conversion posts', async () => {
    const tenant = await fxTenant(api, 'fx opposite');
    const frank = await fxCustomer(api, tenant, '100000');
    await mustPost(api, tenant.posterKey, transfer('equity:seed:usd', frank.usd, '100000', 'USD'));
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        index % 2 === 0
          ? convert(api, tenant.posterKey, body(frank.eur, frank.usd, '1000', '1.08230'))
          : convert(api, tenant.posterKey, body(frank.usd, frank.eur, '1000', '0.92')),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(201));
    expect((await getAccount(api, tenant.posterKey, 'fx:position:EUR')).balances.posted).toBe(
      String(4 * 1000 - 4 * 920),
    );
    expect((await getAccount(api, tenant.posterKey, 'fx:position:USD')).balances.posted).toBe(
      String(4 * 1000 - 4 * 1082),
    );
  });
});
