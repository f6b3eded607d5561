import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import {
  DAY_MS,
  type TestTenant,
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
  setupTenant,
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

const reverse = (tenant: TestTenant, id: string, body?: unknown) =>
  postWithKey(api, tenant.posterKey, `/v1/transactions/${id}/reverse`, body);

describe('reversing a posted transaction', () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await newTenant('reversals');
  });

  it('answers the mirror transaction, links both ways, and restores the balances', async () => {
    const { wallet, shop } = await accounts(tenant);
    await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, '1000'));
    const original = await mustPost(
      api,
      tenant.posterKey,
      transfer(wallet, shop, '250', 'USD', { description: 'purchase', metadata: { order: 7 } }),
    );
    const versionBefore = (await getAccount(api, tenant.posterKey, wallet)).version;
    const response = await reverse(tenant, original.id);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const reversal = response.body;
    expect(reversal).toMatchObject({
      status: 'posted',
      reversesId: original.id,
      reversedById: null,
      holdId: null,
      externalRef: null,
    });
    expect(reversal.id).not.toBe(original.id);
    expect(reversal.description).toContain(original.id);
    expect(
      reversal.entries.map((entry: any) => [
        entry.leg,
        entry.accountCode,
        entry.direction,
        entry.amount,
        entry.currency,
        entry.pending,
      ]),
    ).toEqual([
      [0, wallet, 'credit', '250', 'USD', false],
      [1, shop, 'debit', '250', 'USD', false],
    ]);
    expect(reversal.journal.hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await getAccount(api, tenant.posterKey, wallet)).balances).toEqual({
      posted: '1000',
      pending: '0',
      available: '1000',
    });
    expect((await getAccount(api, tenant.posterKey, wallet)).version).toBe(String(BigInt(versionBefore) + 1n));
    expect((await getAccount(api, tenant.posterKey, shop)).balances.posted).toBe('0');
    const fetchedOriginal = await getTransaction(api, tenant.posterKey, original.id);
    expect(fetchedOriginal).toEqual({ ...original, reversedById: reversal.id });
    expect(await getTransaction(api, tenant.posterKey, reversal.id)).toEqual(reversal);
  });

  it('takes an optional description; unknown fields are 400', async () => {
    const { wallet, shop, codes } = await accounts(tenant);
    await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, '10'));
    const original = await mustPost(api, tenant.posterKey, transfer(wallet, shop, '4'));
    await expectNothingWritten(api, tenant, codes, async () => {
      const unknown = await reverse(tenant, original.id, { reason: 'typo' });
      expectError(unknown, 400, 'VALIDATION_FAILED');
      expect(JSON.stringify(unknown.body.error.details)).toContain('reason');
      expectValidationError(await reverse(tenant, original.id, { description: 'x'.repeat(1001) }), 'description');
    });
    const response = await reverse(tenant, original.id, { description: 'customer refund' });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.description).toBe('customer refund');
  });

  it('a back-dated original is reversed now', async () => {
    const { wallet } = await accounts(tenant);
    const original = await mustPost(
      api,
      tenant.posterKey,
      transfer('equity:seed', wallet, '9', 'USD', { effectiveAt: isoFromNow(-5 * DAY_MS) }),
    );
    const reversal = (await reverse(tenant, original.id)).body;
    expect(Math.abs(new Date(reversal.effectiveAt).getTime() - Date.now())).toBeLessThan(60_000);
    const balance = await api.request(
      'GET',
      `/v1/accounts/${wallet}/balance?asOf=${encodeURIComponent(isoFromNow(-DAY_MS))}`,
      { key: tenant.posterKey },
    );
    expect(balance.body.posted).toBe('9');
    expect((await getAccount(api, tenant.posterKey, wallet)).balances.posted).toBe('0');
  });
});

describe('what cannot be reversed', () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await newTenant('reversal refusals');
  });

  it('reversing twice is 409 ALREADY_REVERSED naming the reversal, and writes nothing', async () => {
    const { wallet, codes } = await accounts(tenant);
    const original = await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, '100'));
    const reversal = (await reverse(tenant, original.id)).body;
    await expectNothingWritten(api, tenant, codes, async () => {
      const again = await reverse(tenant, original.id);
      expectError(again, 409, 'ALREADY_REVERSED');
      expect(again.body.error.details).toMatchObject({ reversedById: reversal.id });
    });
  });

  it('reversing a reversal is 422 NOT_REVERSIBLE', async () => {
    const { wallet, codes } = await accounts(tenant);
    const original = await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, '100'));
    const reversal = (await reverse(tenant, original.id)).body;
    await expectNothingWritten(api, tenant, codes, async () => {
      expectError(await reverse(tenant, reversal.id), 422, 'NOT_REVERSIBLE');
    });
    expect((await getTransaction(api, tenant.posterKey, reversal.id)).reversedById).toBeNull();
  });

  it('reversing a hold or a void record is 422 NOT_REVERSIBLE; the hold stays open', async () => {
    const { wallet, shop, codes } = await accounts(tenant);
    await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, '100'));
    const hold = await mustPost(
      api,
      tenant.posterKey,
      transfer(wallet, shop, '60', 'USD', { pending: { expiresAt: isoFromNow(DAY_MS) } }),
    );
    const other = await mustPost(
      api,
      tenant.posterKey,
      transfer(wallet, shop, '10', 'USD', { pending: { expiresAt: isoFromNow(DAY_MS) } }),
    );
    const voidRecord = (await postWithKey(api, tenant.posterKey, `/v1/transactions/${other.id}/void`)).body;
    await expectNothingWritten(api, tenant, codes, async () => {
      expectError(await reverse(tenant, hold.id), 422, 'NOT_REVERSIBLE');
      expectError(await reverse(tenant, voidRecord.id), 422, 'NOT_REVERSIBLE');
    });
    expect((await getAccount(api, tenant.posterKey, wallet)).balances).toEqual({
      posted: '100',
      pending: '60',
      available: '40',
    });
    expect((await postWithKey(api, tenant.posterKey, `/v1/transactions/${hold.id}/post`)).status).toBe(201);
  });

  it('a reversal that would overdraw (the deposit was spent) is 422 INSUFFICIENT_FUNDS, writes nothing', async () => {
    const { wallet, shop, codes } = await accounts(tenant);
    const deposit = await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, '100'));
    const spend = await mustPost(api, tenant.posterKey, transfer(wallet, shop, '80'));
    await expectNothingWritten(api, tenant, codes, async () => {
      const response = await reverse(tenant, deposit.id);
      expectError(response, 422, 'INSUFFICIENT_FUNDS');
      expect(response.body.error.details).toMatchObject({
        account: wallet,
        availableMinor: '20',
        requiredMinor: '100',
      });
    });
    expect((await getTransaction(api, tenant.posterKey, deposit.id)).reversedById).toBeNull();
    // Undo the spend first; then the deposit can go.
    expect((await reverse(tenant, spend.id)).status).toBe(201);
    const response = await reverse(tenant, deposit.id);
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect((await getAccount(api, tenant.posterKey, wallet)).balances).toEqual({
      posted: '0',
      pending: '0',
      available: '0',
    });
  });

  it("an unknown or malformed id is 404, another tenant's transaction too", async () => {
    const { wallet, codes } = await accounts(tenant);
    const original = await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, '5'));
    const stranger = await setupTenant(api, 'reversal stranger');
    await expectNothingWritten(api, tenant, codes, async () => {
      expectError(await reverse(tenant, randomUUID()), 404, 'NOT_FOUND');
      expectError(await reverse(tenant, 'nope'), 404, 'NOT_FOUND');
      expectError(
        await postWithKey(api, stranger.posterKey, `/v1/transactions/${original.id}/reverse`),
        404,
        'NOT_FOUND',
      );
    });
  });

  it('a reversal without Idempotency-Key is 400 IDEMPOTENCY_KEY_MISSING', async () => {
    const { wallet, codes } = await accounts(tenant);
    const original = await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, '5'));
    await expectNothingWritten(api, tenant, codes, async () => {
      expectError(
        await api.request('POST', `/v1/transactions/${original.id}/reverse`, { key: tenant.posterKey }),
        400,
        'IDEMPOTENCY_KEY_MISSING',
      );
    });
  });
});

describe('concurrent reversals and events', () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await newTenant('reversal races');
  });

  it('8 concurrent reversals of one transaction: one 201, the rest 409 ALREADY_REVERSED', async () => {
    const { wallet, shop } = await accounts(tenant);
    await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, '1000'));
    const original = await mustPost(api, tenant.posterKey, transfer(wallet, shop, '300'));
    const responses = await Promise.all(Array.from({ length: 8 }, () => reverse(tenant, original.id)));
    const winners = responses.filter((response) => response.status === 201);
    expect(winners, JSON.stringify(responses.map((response) => response.status))).toHaveLength(1);
    for (const response of responses.filter((response) => response.status !== 201))
      expectError(response, 409, 'ALREADY_REVERSED');
    const rows = await sqlRows<{ id: string }>(
      api,
      'SELECT id FROM transactions WHERE tenant_id = $1 AND reverses_id = $2',
      [tenant.tenantId, original.id],
    );
    expect(rows.map((row) => row.id)).toEqual([winners[0]!.body.id]);
    expect((await getAccount(api, tenant.posterKey, wallet)).balances.posted).toBe('1000');
    expect((await getAccount(api, tenant.posterKey, shop)).balances.posted).toBe('0');
  });

  it('a replayed reversal (same Idempotency-Key) answers the same reversal', async () => {
    const { wallet } = await accounts(tenant);
    const original = await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, '7'));
    const key = randomUUID();
    const first = await postWithKey(api, tenant.posterKey, `/v1/transactions/${original.id}/reverse`, undefined, key);
    const again = await postWithKey(api, tenant.posterKey, `/v1/transactions/${original.id}/reverse`, undefined, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('the feed shows transaction.reversed for the reversal, with its transaction', async () => {
    const { wallet } = await accounts(tenant);
    const original = await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, '11'));
    const reversal = (await reverse(tenant, original.id)).body;
    const { events } = await readEventFeed(api, tenant.posterKey, {
      ready: (all) => all.some((event) => event.aggregateId === reversal.id),
    });
    expect(events.filter((event) => event.aggregateId === original.id).map((event) => event.type)).toEqual([
      'transaction.posted',
    ]);
    const reversed = events.filter((event) => event.aggregateId === reversal.id);
    expect(reversed.map((event) => event.type)).toEqual(['transaction.reversed']);
    expect(reversed[0]).toMatchObject({
      tenantId: tenant.tenantId,
      data: { transaction: { id: reversal.id, reversesId: original.id, status: 'posted' } },
    });
  });
});
