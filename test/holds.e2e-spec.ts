import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
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
  postTransaction,
  postWithKey,
  readEventFeed,
  seededTenant,
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

const HASH = /^[0-9a-f]{64}$/;

/**
 * A credit-normal wallet funded with `funds` and a merchant account, both new: a hold debits the wallet
 * (its reserved outflow) and credits the merchant.
 */
async function walletPair(tenant: TestTenant, funds: string) {
  const name = randomUUID().slice(0, 8);
  const wallet = `liabilities:${name}:wallet`;
  const merchant = `liabilities:${name}:merchant`;
  await createAccount(api, tenant.adminKey, { code: wallet, currency: 'USD', normalBalance: 'credit' });
  await createAccount(api, tenant.adminKey, { code: merchant, currency: 'USD', normalBalance: 'credit' });
  if (funds !== '0') await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, funds));
  return { wallet, merchant, codes: [wallet, merchant] };
}

function holdBody(
  from: string,
  to: string,
  amount: string,
  expiresAt = isoFromNow(DAY_MS),
  extra: Record<string, unknown> = {},
) {
  return transfer(from, to, amount, 'USD', { ...extra, pending: { expiresAt } });
}

async function placeHold(tenant: TestTenant, from: string, to: string, amount: string) {
  return mustPost(api, tenant.posterKey, holdBody(from, to, amount));
}

const newTenant = (name: string) => seededTenant(api, name);

describe('placing holds', () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await newTenant('holds placing');
  });

  it('reserves the amount at once: pending rises, available falls, posted is unchanged', async () => {
    const { wallet, merchant } = await walletPair(tenant, '1000');
    const expiresAt = new Date(Date.now() + 2 * DAY_MS).toISOString();
    const response = await postTransaction(
      api,
      tenant.posterKey,
      holdBody(wallet, merchant, '300', expiresAt, { metadata: { order: 'h1' } }),
    );
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const hold = response.body;
    expect(hold).toMatchObject({
      status: 'pending',
      expiresAt,
      holdId: null,
      reversesId: null,
      resolution: null,
      metadata: { order: 'h1' },
    });
    expect(hold.entries.map((entry: any) => [entry.accountCode, entry.direction, entry.amount, entry.pending])).toEqual(
      [
        [wallet, 'debit', '300', true],
        [merchant, 'credit', '300', true],
      ],
    );
    expect(hold.journal.hash).toMatch(HASH);
    expect((await getAccount(api, tenant.posterKey, wallet)).balances).toEqual({
      posted: '1000',
      pending: '300',
      available: '700',
    });
    expect((await getAccount(api, tenant.posterKey, merchant)).balances).toEqual({
      posted: '0',
      pending: '0',
      available: '0',
    });
    expect(await getTransaction(api, tenant.posterKey, hold.id)).toEqual(hold);
  });

  it('holds that together exceed the available balance are 422 INSUFFICIENT_FUNDS and write nothing', async () => {
    const { wallet, merchant, codes } = await walletPair(tenant, '500');
    await placeHold(tenant, wallet, merchant, '300');
    await expectNothingWritten(api, tenant, codes, async () => {
      const second = await postTransaction(api, tenant.posterKey, holdBody(wallet, merchant, '201'));
      expectError(second, 422, 'INSUFFICIENT_FUNDS');
      expect(second.body.error.details).toMatchObject({ account: wallet, availableMinor: '200', requiredMinor: '201' });
      // A plain posting sees the reservation too.
      expectError(
        await postTransaction(api, tenant.posterKey, transfer(wallet, merchant, '201')),
        422,
        'INSUFFICIENT_FUNDS',
      );
    });
    await placeHold(tenant, wallet, merchant, '200');
    expect((await getAccount(api, tenant.posterKey, wallet)).balances).toEqual({
      posted: '500',
      pending: '500',
      available: '0',
    });
  });

  it('expiresAt in the past, more than 90 days away or without an offset is 400', async () => {
    const { wallet, merchant, codes } = await walletPair(tenant, '100');
    await expectNothingWritten(api, tenant, codes, async () => {
      for (const expiresAt of [
        isoFromNow(-60_000),
        isoFromNow(-DAY_MS),
        isoFromNow(91 * DAY_MS),
        isoFromNow(90 * DAY_MS + 60_000),
      ]) {
        expectValidationError(
          await postTransaction(api, tenant.posterKey, holdBody(wallet, merchant, '1', expiresAt)),
          'pending.expiresAt',
        );
      }
      expectError(
        await postTransaction(api, tenant.posterKey, holdBody(wallet, merchant, '1', '2099-01-01T00:00:00')),
        400,
        'VALIDATION_FAILED',
      );
      expectError(
        await postTransaction(api, tenant.posterKey, transfer(wallet, merchant, '1', 'USD', { pending: {} })),
        400,
        'VALIDATION_FAILED',
      );
    });
    const longest = await postTransaction(
      api,
      tenant.posterKey,
      holdBody(wallet, merchant, '1', isoFromNow(90 * DAY_MS - 60_000)),
    );
    expect(longest.status, JSON.stringify(longest.body)).toBe(201);
  });
});

describe('resolving holds', () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await newTenant('holds resolving');
  });

  it('void releases the reservation and answers the void record; GET shows the resolution', async () => {
    const { wallet, merchant } = await walletPair(tenant, '1000');
    const hold = await placeHold(tenant, wallet, merchant, '300');
    const voided = await postWithKey(api, tenant.posterKey, `/v1/transactions/${hold.id}/void`);
    expect(voided.status, JSON.stringify(voided.body)).toBe(201);
    expect(voided.body).toMatchObject({ status: 'voided', holdId: hold.id, entries: [], reversesId: null });
    expect(voided.body.id).not.toBe(hold.id);
    expect((await getAccount(api, tenant.posterKey, wallet)).balances).toEqual({
      posted: '1000',
      pending: '0',
      available: '1000',
    });
    expect((await getAccount(api, tenant.posterKey, merchant)).balances.posted).toBe('0');
    expect((await getTransaction(api, tenant.posterKey, hold.id)).resolution).toEqual({
      id: voided.body.id,
      status: 'voided',
    });
    expect(await getTransaction(api, tenant.posterKey, voided.body.id)).toEqual(voided.body);
    // A body of {} is the same as none.
    const other = await placeHold(tenant, wallet, merchant, '5');
    expect((await postWithKey(api, tenant.posterKey, `/v1/transactions/${other.id}/void`, {})).status).toBe(201);
  });

  it('post without an amount captures the whole hold', async () => {
    const { wallet, merchant } = await walletPair(tenant, '1000');
    const hold = await placeHold(tenant, wallet, merchant, '300');
    const captured = await postWithKey(api, tenant.posterKey, `/v1/transactions/${hold.id}/post`);
    expect(captured.status, JSON.stringify(captured.body)).toBe(201);
    expect(captured.body).toMatchObject({ status: 'posted', holdId: hold.id, expiresAt: null });
    expect(
      captured.body.entries.map((entry: any) => [entry.accountCode, entry.direction, entry.amount, entry.pending]),
    ).toEqual([
      [wallet, 'debit', '300', false],
      [merchant, 'credit', '300', false],
    ]);
    expect((await getAccount(api, tenant.posterKey, wallet)).balances).toEqual({
      posted: '700',
      pending: '0',
      available: '700',
    });
    expect((await getAccount(api, tenant.posterKey, merchant)).balances).toEqual({
      posted: '300',
      pending: '0',
      available: '300',
    });
    expect((await getTransaction(api, tenant.posterKey, hold.id)).resolution).toEqual({
      id: captured.body.id,
      status: 'posted',
    });
  });

  it('a partial capture posts that amount and releases the rest', async () => {
    const { wallet, merchant } = await walletPair(tenant, '1000');
    const hold = await placeHold(tenant, wallet, merchant, '300');
    const captured = await postWithKey(api, tenant.posterKey, `/v1/transactions/${hold.id}/post`, { amount: '120' });
    expect(captured.status, JSON.stringify(captured.body)).toBe(201);
    expect(captured.body.entries.map((entry: any) => entry.amount)).toEqual(['120', '120']);
    expect((await getAccount(api, tenant.posterKey, wallet)).balances).toEqual({
      posted: '880',
      pending: '0',
      available: '880',
    });
    expect((await getAccount(api, tenant.posterKey, merchant)).balances.posted).toBe('120');
  });

  it('capturing more than held, zero, or a bad amount is 400 and leaves the hold open', async () => {
    const { wallet, merchant, codes } = await walletPair(tenant, '1000');
    const hold = await placeHold(tenant, wallet, merchant, '300');
    await expectNothingWritten(api, tenant, codes, async () => {
      expectValidationError(
        await postWithKey(api, tenant.posterKey, `/v1/transactions/${hold.id}/post`, { amount: '301' }),
        'amount',
      );
      expectValidationError(
        await postWithKey(api, tenant.posterKey, `/v1/transactions/${hold.id}/post`, { amount: '0' }),
        'amount',
      );
      expectValidationError(
        await postWithKey(api, tenant.posterKey, `/v1/transactions/${hold.id}/post`, { amount: 50 }),
        'amount',
      );
      expectError(
        await postWithKey(api, tenant.posterKey, `/v1/transactions/${hold.id}/void`, { amount: '1' }),
        400,
        'VALIDATION_FAILED',
      );
    });
    expect((await getTransaction(api, tenant.posterKey, hold.id)).resolution).toBeNull();
    expect(
      (await postWithKey(api, tenant.posterKey, `/v1/transactions/${hold.id}/post`, { amount: '300' })).status,
    ).toBe(201);
  });

  it('a second resolution is 409 HOLD_ALREADY_RESOLVED and writes nothing', async () => {
    const { wallet, merchant, codes } = await walletPair(tenant, '1000');
    const voidedHold = await placeHold(tenant, wallet, merchant, '10');
    const postedHold = await placeHold(tenant, wallet, merchant, '20');
    expect((await postWithKey(api, tenant.posterKey, `/v1/transactions/${voidedHold.id}/void`)).status).toBe(201);
    expect((await postWithKey(api, tenant.posterKey, `/v1/transactions/${postedHold.id}/post`)).status).toBe(201);
    await expectNothingWritten(api, tenant, codes, async () => {
      for (const id of [voidedHold.id, postedHold.id]) {
        for (const action of ['post', 'void']) {
          const response = await postWithKey(api, tenant.posterKey, `/v1/transactions/${id}/${action}`);
          expectError(response, 409, 'HOLD_ALREADY_RESOLVED');
        }
      }
    });
  });

  it('resolving what is not a hold is 422 NOT_A_HOLD; an unknown id is 404', async () => {
    const { wallet, merchant, codes } = await walletPair(tenant, '1000');
    const posted = await mustPost(api, tenant.posterKey, transfer(wallet, merchant, '1'));
    const hold = await placeHold(tenant, wallet, merchant, '2');
    const voidRecord = (await postWithKey(api, tenant.posterKey, `/v1/transactions/${hold.id}/void`)).body;
    await expectNothingWritten(api, tenant, codes, async () => {
      for (const id of [posted.id, voidRecord.id]) {
        expectError(await postWithKey(api, tenant.posterKey, `/v1/transactions/${id}/post`), 422, 'NOT_A_HOLD');
        expectError(await postWithKey(api, tenant.posterKey, `/v1/transactions/${id}/void`), 422, 'NOT_A_HOLD');
      }
      for (const id of [randomUUID(), 'not-a-uuid']) {
        expectError(await postWithKey(api, tenant.posterKey, `/v1/transactions/${id}/post`), 404, 'NOT_FOUND');
        expectError(await postWithKey(api, tenant.posterKey, `/v1/transactions/${id}/void`), 404, 'NOT_FOUND');
      }
    });
  });

  it("another tenant's hold is 404 and stays open", async () => {
    const { wallet, merchant } = await walletPair(tenant, '100');
    const hold = await placeHold(tenant, wallet, merchant, '10');
    const stranger = await setupTenant(api, 'holds stranger');
    expectError(await postWithKey(api, stranger.posterKey, `/v1/transactions/${hold.id}/void`), 404, 'NOT_FOUND');
    expect((await getTransaction(api, tenant.posterKey, hold.id)).resolution).toBeNull();
  });

  it('a replayed capture (same Idempotency-Key) answers the same record, not 409', async () => {
    const { wallet, merchant } = await walletPair(tenant, '1000');
    const hold = await placeHold(tenant, wallet, merchant, '40');
    const key = randomUUID();
    const first = await postWithKey(api, tenant.posterKey, `/v1/transactions/${hold.id}/post`, { amount: '15' }, key);
    expect(first.status).toBe(201);
    const again = await postWithKey(api, tenant.posterKey, `/v1/transactions/${hold.id}/post`, { amount: '15' }, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await getAccount(api, tenant.posterKey, merchant)).balances.posted).toBe('15');
  });
});

describe('racing resolutions', () => {
  it('10 concurrent post/void calls on one hold: exactly one 201, the rest 409', async () => {
    const tenant = await newTenant('holds race');
    for (let round = 0; round < 3; round++) {
      const { wallet, merchant } = await walletPair(tenant, '1000');
      const hold = await placeHold(tenant, wallet, merchant, '100');
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          postWithKey(api, tenant.posterKey, `/v1/transactions/${hold.id}/${index % 2 === 0 ? 'post' : 'void'}`),
        ),
      );
      const winners = responses.filter((response) => response.status === 201);
      expect(
        winners,
        JSON.stringify(responses.map((response) => [response.status, response.body?.error?.code])),
      ).toHaveLength(1);
      for (const response of responses.filter((response) => response.status !== 201))
        expectError(response, 409, 'HOLD_ALREADY_RESOLVED');
      const resolutions = await sqlRows<{ id: string }>(
        api,
        'SELECT id FROM transactions WHERE tenant_id = $1 AND hold_id = $2',
        [tenant.tenantId, hold.id],
      );
      expect(resolutions.map((row) => row.id)).toEqual([winners[0]!.body.id]);
      const captured = winners[0]!.body.status === 'posted';
      expect((await getAccount(api, tenant.posterKey, wallet)).balances).toEqual(
        captured
          ? { posted: '900', pending: '0', available: '900' }
          : { posted: '1000', pending: '0', available: '1000' },
      );
      expect((await getAccount(api, tenant.posterKey, merchant)).balances.posted).toBe(captured ? '100' : '0');
    }
  });
});

describe('hold events', () => {
  it('the feed shows transaction.pending, hold.posted and hold.voided with their transactions', async () => {
    const tenant = await newTenant('holds events');
    const { wallet, merchant } = await walletPair(tenant, '1000');
    const toCapture = await placeHold(tenant, wallet, merchant, '30');
    const toVoid = await placeHold(tenant, wallet, merchant, '40');
    const capture = (await postWithKey(api, tenant.posterKey, `/v1/transactions/${toCapture.id}/post`)).body;
    const voidRecord = (await postWithKey(api, tenant.posterKey, `/v1/transactions/${toVoid.id}/void`)).body;
    const { events } = await readEventFeed(api, tenant.posterKey, {
      ready: (all) => all.some((event) => event.type === 'hold.voided'),
    });
    // A hold and its resolution are one aggregate: the hold is version 1, its resolution version 2.
    const byAggregate = (id: string) => events.filter((event) => event.aggregateId === id);
    expect(byAggregate(toCapture.id).map((event) => [event.type, event.aggregateVersion])).toEqual([
      ['transaction.pending', '1'],
      ['hold.posted', '2'],
    ]);
    expect(byAggregate(toVoid.id).map((event) => [event.type, event.aggregateVersion])).toEqual([
      ['transaction.pending', '1'],
      ['hold.voided', '2'],
    ]);
    const posted = byAggregate(toCapture.id)[1];
    expect(posted.data.transaction).toMatchObject({ id: capture.id, holdId: toCapture.id, status: 'posted' });
    const voided = byAggregate(toVoid.id)[1];
    expect(voided).toMatchObject({
      tenantId: tenant.tenantId,
      data: { transaction: { id: voidRecord.id, holdId: toVoid.id, status: 'voided', entries: [] } },
    });
    expect(byAggregate(toCapture.id)[0].data.transaction).toMatchObject({
      status: 'pending',
      expiresAt: toCapture.expiresAt,
    });
  });
});
