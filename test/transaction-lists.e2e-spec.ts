import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import {
  type TestTenant,
  createAccount,
  expectError,
  mustPost,
  readAllPages,
  readEventFeed,
  setupTenant,
  transfer,
} from './support/ledger-fixtures';

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function expectNoDuplicates(values: readonly string[]): void {
  expect(new Set(values).size).toBe(values.length);
}

describe('account entries with running balance', () => {
  const POSTINGS = 120;
  let tenant: TestTenant;
  const posted = new Map<string, { direction: 'debit' | 'credit'; amount: bigint }>();

  beforeAll(async () => {
    tenant = await setupTenant(api, 'entries');
    await createAccount(api, tenant.adminKey, {
      code: 'assets:cash',
      currency: 'USD',
      normalBalance: 'debit',
      allowNegative: true,
    });
    await createAccount(api, tenant.adminKey, {
      code: 'equity:other',
      currency: 'USD',
      normalBalance: 'credit',
      allowNegative: true,
    });
    // Concurrent batches: the running balance must follow the account's lock order, not arrival order.
    for (let start = 0; start < POSTINGS; start += 10) {
      await Promise.all(
        Array.from({ length: 10 }, async (_, offset) => {
          const index = start + offset;
          const amount = BigInt(((index * 37) % 1000) + 1);
          const cashDebited = index % 3 !== 0;
          const body = cashDebited
            ? transfer('assets:cash', 'equity:other', amount.toString())
            : transfer('equity:other', 'assets:cash', amount.toString());
          const transaction = await mustPost(api, tenant.posterKey, body);
          posted.set(transaction.id, { direction: cashDebited ? 'debit' : 'credit', amount });
        }),
      );
    }
  });

  it('pages of 50 cover all 120 entries newest first, with no duplicates or gaps', async () => {
    const { items, pages } = await readAllPages(api, tenant.posterKey, '/v1/accounts/assets:cash/entries', 50);
    expect(pages).toBe(3);
    expect(items).toHaveLength(POSTINGS);
    expectNoDuplicates(items.map((entry) => entry.transactionId));
    expect(new Set(items.map((entry) => entry.transactionId))).toEqual(new Set(posted.keys()));
    expect(items.map((entry) => entry.accountVersion)).toEqual(
      Array.from({ length: POSTINGS }, (_, index) => String(POSTINGS - index)),
    );
    for (const entry of items) {
      const expected = posted.get(entry.transactionId)!;
      expect(entry).toMatchObject({
        direction: expected.direction,
        amount: expected.amount.toString(),
        currency: 'USD',
        leg: expected.direction === 'debit' ? 0 : 1,
      });
    }
  });

  it("each entry's postedBalance is the running sum, ending at the account's balance", async () => {
    const { items } = await readAllPages(api, tenant.posterKey, '/v1/accounts/assets:cash/entries', 50);
    let running = 0n;
    for (const entry of [...items].reverse()) {
      running += entry.direction === 'debit' ? BigInt(entry.amount) : -BigInt(entry.amount);
      expect(entry.postedBalance, `after version ${entry.accountVersion}`).toBe(running.toString());
    }
    const cash = await api.request('GET', '/v1/accounts/assets:cash', { key: tenant.posterKey });
    expect(cash.body.balances.posted).toBe(running.toString());
    expect(cash.body.version).toBe(String(POSTINGS));
    // The counterpart, credit-normal, mirrors it.
    const other = await readAllPages(api, tenant.posterKey, '/v1/accounts/equity:other/entries', 200);
    expect(other.items[0].postedBalance).toBe(running.toString());
  });

  it("the feed lists the account's transaction.posted events in its entries' (commit) order", async () => {
    const { items } = await readAllPages(api, tenant.posterKey, '/v1/accounts/assets:cash/entries', 200);
    const inEntryOrder = items.map((entry) => entry.transactionId).reverse();
    const feed = await readEventFeed(api, tenant.posterKey, {
      limit: 500,
      ready: (events) => events.length >= POSTINGS + 2,
    });
    const inFeedOrder = feed.events
      .filter((event) => event.type === 'transaction.posted')
      .map((event) => event.aggregateId);
    expect(inFeedOrder).toEqual(inEntryOrder);
  });

  it('a page size that divides the total ends without an empty page', async () => {
    const { items, pages } = await readAllPages(api, tenant.posterKey, '/v1/accounts/assets:cash/entries', 40);
    expect(pages).toBe(3);
    expect(items).toHaveLength(POSTINGS);
    const first = await api.request('GET', '/v1/accounts/assets:cash/entries', { key: tenant.posterKey });
    expect(first.body.data).toHaveLength(50); // the default page size
  });
});

describe('transactions list', () => {
  let tenant: TestTenant;
  const all: any[] = [];
  const onX: any[] = [];

  beforeAll(async () => {
    tenant = await setupTenant(api, 'lists');
    for (const code of ['assets:x', 'assets:y'])
      await createAccount(api, tenant.adminKey, { code, currency: 'USD', normalBalance: 'debit' });
    await createAccount(api, tenant.adminKey, { code: 'income:z', currency: 'USD', normalBalance: 'credit' });
    for (let index = 0; index < 12; index++) {
      const onAccountX = index % 5 !== 2 && index < 10; // 8 on X, 4 on Y
      const body = onAccountX
        ? transfer('assets:x', 'income:z', String(index + 1), 'USD', { externalRef: `x-${index}` })
        : transfer('assets:y', 'income:z', String(index + 1));
      const transaction = await mustPost(api, tenant.posterKey, body);
      all.push(transaction);
      if (onAccountX) onX.push(transaction);
    }
  });

  const ids = (items: readonly { id: string }[]) => items.map((transaction) => transaction.id);

  it('lists newest first, paged with nextCursor, without duplicates or gaps', async () => {
    const { items, pages } = await readAllPages(api, tenant.posterKey, '/v1/transactions', 5);
    expect(pages).toBe(3);
    expect(ids(items)).toEqual(ids(all).reverse());
    expect(items[0]).toEqual(all.at(-1));
  });

  it('filters by account (code or id) and pages through the matches', async () => {
    const byCode = await readAllPages(api, tenant.posterKey, '/v1/transactions?account=assets:x', 3);
    expect(byCode.pages).toBe(3);
    expect(ids(byCode.items)).toEqual(ids(onX).reverse());
    const xId = onX[0].entries[0].accountId;
    const byId = await readAllPages(api, tenant.posterKey, `/v1/transactions?account=${xId}`, 3);
    expect(ids(byId.items)).toEqual(ids(byCode.items));
    const onY = await readAllPages(api, tenant.posterKey, '/v1/transactions?account=assets:y', 200);
    expect(onY.items).toHaveLength(all.length - onX.length);
    for (const transaction of onY.items)
      expect(transaction.entries.map((entry: any) => entry.accountCode)).toContain('assets:y');
    expectError(
      await api.request('GET', '/v1/transactions?account=assets:none', { key: tenant.posterKey }),
      404,
      'NOT_FOUND',
    );
  });

  it('filters by externalRef, alone and with an account', async () => {
    const one = await api.request('GET', '/v1/transactions?externalRef=x-3', { key: tenant.posterKey });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      data: [onX.find((transaction) => transaction.externalRef === 'x-3')],
      nextCursor: null,
    });
    const both = await api.request('GET', '/v1/transactions?externalRef=x-3&account=assets:x', {
      key: tenant.posterKey,
    });
    expect(ids(both.body.data)).toEqual(ids(one.body.data));
    const none = await api.request('GET', '/v1/transactions?externalRef=x-3&account=assets:y', {
      key: tenant.posterKey,
    });
    expect(none.body).toEqual({ data: [], nextCursor: null });
  });

  it('filters by creation time: from is inclusive, to exclusive', async () => {
    const pivot = all[5].createdAt;
    const from = await readAllPages(api, tenant.posterKey, `/v1/transactions?from=${encodeURIComponent(pivot)}`, 200);
    expect(ids(from.items).sort()).toEqual(ids(all.filter((transaction) => transaction.createdAt >= pivot)).sort());
    expect(ids(from.items)).toContain(all[5].id);
    const to = await readAllPages(api, tenant.posterKey, `/v1/transactions?to=${encodeURIComponent(pivot)}`, 200);
    expect(ids(to.items).sort()).toEqual(ids(all.filter((transaction) => transaction.createdAt < pivot)).sort());
    expect(to.items.length + from.items.length).toBe(all.length);
  });
});

describe('event feed', () => {
  let tenant: TestTenant;
  let accounts: any[];
  let transactions: any[];

  beforeAll(async () => {
    tenant = await setupTenant(api, 'events');
    accounts = [
      await createAccount(api, tenant.adminKey, { code: 'assets:cash', currency: 'EUR', normalBalance: 'debit' }),
      await createAccount(api, tenant.adminKey, { code: 'income:sales', currency: 'EUR', normalBalance: 'credit' }),
    ];
    transactions = [];
    for (const amount of ['10', '20', '30'])
      transactions.push(await mustPost(api, tenant.posterKey, transfer('assets:cash', 'income:sales', amount, 'EUR')));
  });

  const ready = (count: number) => (events: any[]) => events.length >= count;

  it('lists account.created and transaction.posted in commit order with their aggregates', async () => {
    const { events } = await readEventFeed(api, tenant.posterKey, { ready: ready(5) });
    expect(events.map((event) => event.type)).toEqual([
      'account.created',
      'account.created',
      'transaction.posted',
      'transaction.posted',
      'transaction.posted',
    ]);
    expect(events.map((event) => event.aggregateId)).toEqual([
      ...accounts.map((account) => account.id),
      ...transactions.map((transaction) => transaction.id),
    ]);
    expectNoDuplicates(events.map((event) => event.id));
    for (const event of events) {
      expect(event.id).toMatch(UUID);
      expect(event.tenantId).toBe(tenant.tenantId);
      expect(new Date(event.occurredAt).toISOString()).toBe(event.occurredAt);
    }
    expect(events.slice(0, 2).map((event) => event.aggregateVersion)).toEqual(['0', '0']);
    expect(events[0].data.account).toMatchObject({ id: accounts[0].id, code: 'assets:cash', currency: 'EUR' });
    for (const [index, transaction] of transactions.entries()) {
      const event = events[2 + index];
      expect(event.aggregateVersion).toBe('1');
      expect(event.data.transaction).toMatchObject({ id: transaction.id, status: 'posted' });
      expect(event.data.transaction.entries).toEqual(transaction.entries);
    }
  });

  it('following nextCursor with a small limit gives the same events, once each', async () => {
    const whole = await readEventFeed(api, tenant.posterKey, { ready: ready(5) });
    const paged = await readEventFeed(api, tenant.posterKey, { limit: 2, ready: ready(5) });
    expect(paged.pages).toBe(4); // 2 + 2 + 1, then an empty page
    expect(paged.events.map((event) => event.id)).toEqual(whole.events.map((event) => event.id));
  });

  it('the cursor at the end of the feed yields exactly what is committed later', async () => {
    const { cursor, events } = await readEventFeed(api, tenant.posterKey, { ready: ready(5) });
    expect(events.length).toBeGreaterThanOrEqual(5);
    const later = await mustPost(api, tenant.posterKey, transfer('assets:cash', 'income:sales', '40', 'EUR'));
    let page: any;
    for (let attempt = 0; attempt < 100; attempt++) {
      page = await api.request('GET', `/v1/events?after=${encodeURIComponent(cursor)}`, { key: tenant.posterKey });
      expect(page.status).toBe(200);
      if (page.body.data.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(page.body.data.map((event: any) => [event.type, event.aggregateId])).toEqual([
      ['transaction.posted', later.id],
    ]);
    const after = await api.request('GET', `/v1/events?after=${encodeURIComponent(page.body.nextCursor)}`, {
      key: tenant.posterKey,
    });
    expect(after.body).toEqual({ data: [], nextCursor: page.body.nextCursor });
  });
});
