import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '@ledger/db';
import { METADATA_FILTER } from '../libs/ledger/src/transactions/transaction-queries.sql';
import { type ApiHarness, startApi } from './support/api-harness';
import {
  DAY_MS,
  type TestTenant,
  createAccount,
  expectError,
  expectValidationError,
  getAccount,
  getTransaction,
  isoFromNow,
  mustPost,
  postWithKey,
  readAllPages,
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

const hold = (from: string, to: string, amount: string) =>
  transfer(from, to, amount, 'USD', { pending: { expiresAt: isoFromNow(DAY_MS) } });

describe('balance as of a time', () => {
  let tenant: TestTenant;
  let cash: any;
  const twoDaysAgo = isoFromNow(-2 * DAY_MS);
  const oneDayAgo = isoFromNow(-DAY_MS);
  const at = (iso: string, shiftMs: number) => new Date(new Date(iso).getTime() + shiftMs).toISOString();
  const balance = (ref: string, asOf?: string) =>
    api.request('GET', `/v1/accounts/${ref}/balance${asOf === undefined ? '' : `?asOf=${encodeURIComponent(asOf)}`}`, {
      key: tenant.posterKey,
    });

  beforeAll(async () => {
    tenant = await setupTenant(api, 'balance as of');
    cash = await createAccount(api, tenant.adminKey, { code: 'assets:cash', currency: 'USD', normalBalance: 'debit' });
    await createAccount(api, tenant.adminKey, {
      code: 'income:sales',
      currency: 'USD',
      normalBalance: 'credit',
      allowNegative: true,
    });
    // Posted out of effective order: two days ago, then now, then one day ago.
    await mustPost(
      api,
      tenant.posterKey,
      transfer('assets:cash', 'income:sales', '100', 'USD', { effectiveAt: twoDaysAgo }),
    );
    await mustPost(api, tenant.posterKey, transfer('assets:cash', 'income:sales', '5'));
    await mustPost(
      api,
      tenant.posterKey,
      transfer('income:sales', 'assets:cash', '30', 'USD', { effectiveAt: oneDayAgo }),
    );
    await mustPost(api, tenant.posterKey, hold('income:sales', 'assets:cash', '7')); // holds are not history
  });

  it('sums the entries effective at or before asOf, whatever order they were posted in', async () => {
    const expected: [string, string, string, string][] = [
      [isoFromNow(-3 * DAY_MS), '0', '0', '0'],
      [at(twoDaysAgo, -1), '0', '0', '0'],
      [twoDaysAgo, '100', '100', '0'],
      [at(oneDayAgo, -DAY_MS / 2), '100', '100', '0'],
      [oneDayAgo, '70', '100', '30'],
      [isoFromNow(-DAY_MS / 2), '70', '100', '30'],
      [isoFromNow(DAY_MS), '75', '105', '30'],
    ];
    for (const [asOf, posted, postedDebits, postedCredits] of expected) {
      const response = await balance('assets:cash', asOf);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body, `as of ${asOf}`).toEqual({
        account: 'assets:cash',
        currency: 'USD',
        asOf,
        posted,
        postedDebits,
        postedCredits,
      });
    }
  });

  it('a credit-normal account counts credits minus debits; an id names the account too', async () => {
    const response = await api.request(
      'GET',
      `/v1/accounts/income:sales/balance?asOf=${encodeURIComponent(isoFromNow(-DAY_MS / 2))}`,
      { key: tenant.posterKey },
    );
    expect(response.body).toMatchObject({
      account: 'income:sales',
      posted: '70',
      postedDebits: '30',
      postedCredits: '100',
    });
    const byId = await balance(cash.id, oneDayAgo);
    expect(byId.body).toMatchObject({ account: 'assets:cash', posted: '70' });
  });

  it('without asOf it is now, equal to the posted balance (the hold left out)', async () => {
    const response = await balance('assets:cash');
    expect(response.status).toBe(200);
    expect(Math.abs(new Date(response.body.asOf).getTime() - Date.now())).toBeLessThan(60_000);
    expect(response.body).toMatchObject({ posted: '75', postedDebits: '105', postedCredits: '30' });
    expect((await getAccount(api, tenant.posterKey, 'assets:cash')).balances).toEqual({
      posted: '75',
      pending: '7',
      available: '68',
    });
  });

  it('an invalid asOf or an unknown parameter is 400; an unknown account is 404', async () => {
    for (const asOf of ['yesterday', '2026-01-01T00:00:00', '2026-01-01', '2026-13-01T00:00:00Z', '']) {
      expectValidationError(
        await api.request('GET', `/v1/accounts/assets:cash/balance?asOf=${encodeURIComponent(asOf)}`, {
          key: tenant.posterKey,
        }),
        'asOf',
      );
    }
    expectError(
      await api.request('GET', '/v1/accounts/assets:cash/balance?asOf=2026-01-01T00:00:00Z&asOf=2026-01-02T00:00:00Z', {
        key: tenant.posterKey,
      }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(
      await api.request('GET', '/v1/accounts/assets:cash/balance?at=2026-01-01T00:00:00Z', { key: tenant.posterKey }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(await balance('assets:nope', oneDayAgo), 404, 'NOT_FOUND');
  });
});

describe('account entries and the running posted balance', () => {
  let tenant: TestTenant;
  let held: any;
  beforeAll(async () => {
    tenant = await setupTenant(api, 'running balance');
    await createAccount(api, tenant.adminKey, { code: 'liabilities:wallet', currency: 'USD', normalBalance: 'credit' });
    await createAccount(api, tenant.adminKey, {
      code: 'equity:seed',
      currency: 'USD',
      normalBalance: 'credit',
      allowNegative: true,
    });
    await mustPost(api, tenant.posterKey, transfer('equity:seed', 'liabilities:wallet', '100'));
    await mustPost(
      api,
      tenant.posterKey,
      transfer('equity:seed', 'liabilities:wallet', '50', 'USD', { effectiveAt: isoFromNow(-3 * DAY_MS) }),
    );
    await mustPost(api, tenant.posterKey, transfer('liabilities:wallet', 'equity:seed', '30'));
    held = await mustPost(api, tenant.posterKey, hold('liabilities:wallet', 'equity:seed', '20'));
    await mustPost(api, tenant.posterKey, transfer('liabilities:wallet', 'equity:seed', '10'));
    const capture = await postWithKey(api, tenant.posterKey, `/v1/transactions/${held.id}/post`, { amount: '15' });
    expect(capture.status, JSON.stringify(capture.body)).toBe(201);
  });

  it('each entry carries the posted balance right after it, in posting order (not effective order)', async () => {
    const { items } = await readAllPages(api, tenant.posterKey, '/v1/accounts/liabilities:wallet/entries', 2);
    const oldestFirst = [...items].reverse();
    expect(oldestFirst.map((entry) => [entry.direction, entry.amount, entry.postedBalance])).toEqual([
      ['credit', '100', '100'],
      ['credit', '50', '150'],
      ['debit', '30', '120'],
      ['debit', '20', '120'], // the hold: reserved, not posted
      ['debit', '10', '110'],
      ['debit', '15', '95'], // the capture
    ]);
    expect(oldestFirst.map((entry) => entry.accountVersion)).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(new Date(oldestFirst[1].effectiveAt).getTime()).toBeLessThan(new Date(oldestFirst[0].effectiveAt).getTime());
    expect((await getAccount(api, tenant.posterKey, 'liabilities:wallet')).balances).toEqual({
      posted: '95',
      pending: '0',
      available: '95',
    });
  });

  it("a hold's entry says it is pending, the others say they are not", async () => {
    const { items } = await readAllPages(api, tenant.posterKey, '/v1/accounts/liabilities:wallet/entries', 50);
    expect(items.map((entry) => [entry.transactionId === held.id, entry.pending])).toEqual(
      items.map((entry) => [entry.transactionId === held.id, entry.transactionId === held.id]),
    );
  });
});

describe('list filters and metadata', () => {
  let tenant: TestTenant;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    tenant = await setupTenant(api, 'list filters');
    const make = async (code: string, currency: string, metadata: Record<string, unknown>) =>
      (ids[code] = (
        await createAccount(api, tenant.adminKey, {
          code,
          currency,
          normalBalance: 'credit',
          allowNegative: true,
          metadata,
        })
      ).id);
    await make('liabilities:gold:1', 'USD', { tier: 'gold' });
    await make('liabilities:gold:2', 'USD', { tier: 'gold', region: 'eu' });
    await make('liabilities:gold:eur', 'EUR', { tier: 'gold' });
    await make('liabilities:silver', 'USD', { tier: 'silver' });
    await make('liabilitiesx:gold', 'USD', { tier: 'gold' });
    await make('assets:gold', 'USD', { tier: 'gold' });
    await make('liabilities:gold:3', 'USD', { tier: 'gold', nested: { level: 2 } });
  });

  const accountCodes = async (query: string, limit = 2) =>
    (await readAllPages(api, tenant.posterKey, `/v1/accounts?${query}`, limit)).items.map((account) => account.code);

  it('accounts filter by currency, code prefix and metadata, paged', async () => {
    const metadata = encodeURIComponent(JSON.stringify({ tier: 'gold' }));
    const { items, pages } = await readAllPages(
      api,
      tenant.posterKey,
      `/v1/accounts?currency=USD&codePrefix=liabilities:&metadata=${metadata}`,
      2,
    );
    expect(items.map((account) => account.code)).toEqual([
      'liabilities:gold:1',
      'liabilities:gold:2',
      'liabilities:gold:3',
    ]);
    expect(pages).toBe(2);
    expect(items[1]).toMatchObject({
      id: ids['liabilities:gold:2'],
      metadata: { tier: 'gold', region: 'eu' },
      balances: { posted: '0' },
    });
    expect(await accountCodes(`metadata=${encodeURIComponent('{"tier":"gold","region":"eu"}')}`)).toEqual([
      'liabilities:gold:2',
    ]);
    expect(await accountCodes(`metadata=${encodeURIComponent('{"nested":{"level":2}}')}`)).toEqual([
      'liabilities:gold:3',
    ]);
    expect(await accountCodes(`metadata=${encodeURIComponent('{"tier":"GOLD"}')}`)).toEqual([]);
    expect(await accountCodes('currency=EUR')).toEqual(['liabilities:gold:eur']);
    expect(await accountCodes(`codePrefix=${encodeURIComponent('liab_lities:')}`)).toEqual([]);
    expect(await accountCodes(`codePrefix=${encodeURIComponent('liabilities%')}`)).toEqual([]);
    expect(await accountCodes('', 3)).toHaveLength(7);
  });

  it('transactions filter by metadata and status', async () => {
    const posted = await mustPost(
      api,
      tenant.posterKey,
      transfer('liabilities:gold:1', 'liabilities:gold:2', '5', 'USD', { metadata: { orderId: 'A1' } }),
    );
    const heldA1 = await mustPost(
      api,
      tenant.posterKey,
      transfer('liabilities:gold:1', 'liabilities:gold:2', '6', 'USD', {
        metadata: { orderId: 'A1', channel: 'web' },
        pending: { expiresAt: isoFromNow(DAY_MS) },
      }),
    );
    const heldA2 = await mustPost(
      api,
      tenant.posterKey,
      transfer('liabilities:gold:1', 'liabilities:gold:2', '7', 'USD', {
        metadata: { orderId: 'A2' },
        pending: { expiresAt: isoFromNow(DAY_MS) },
      }),
    );
    const voided = (await postWithKey(api, tenant.posterKey, `/v1/transactions/${heldA2.id}/void`)).body;
    const list = async (query: string) =>
      (await readAllPages(api, tenant.posterKey, `/v1/transactions?${query}`, 1)).items.map(
        (transaction) => transaction.id,
      );
    const a1 = encodeURIComponent(JSON.stringify({ orderId: 'A1' }));
    expect(await list(`metadata=${a1}`)).toEqual([heldA1.id, posted.id]);
    expect(await list(`metadata=${a1}&status=pending`)).toEqual([heldA1.id]);
    expect(await list(`metadata=${a1}&status=posted`)).toEqual([posted.id]);
    expect(await list('status=pending')).toEqual([heldA2.id, heldA1.id]);
    expect(await list('status=voided')).toEqual([voided.id]);
    expect(await list(`metadata=${encodeURIComponent('{"orderId":"A3"}')}`)).toEqual([]);
    // {} is contained in every metadata, the void's empty one included: no filter at all.
    const everything = await list('');
    expect(everything).toContain(voided.id);
    expect(await list(`metadata=${encodeURIComponent('{}')}`)).toEqual(everything);
  });

  it('the metadata filter can use the metadata index, which holds only transactions with metadata', async () => {
    // The filter alone, so that the index is the only one that can serve it: its plan shows whether the
    // filter implies the index's predicate.
    const filterOnly = sql<{ metadata: string }, { id: string }>(
      `SELECT t.id FROM transactions t WHERE ${METADATA_FILTER}`,
    );
    const plan = await api.db.database.sql.transaction('read committed', async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      const rows = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${filterOnly.text}`, [
        JSON.stringify({ orderId: 'A1' }),
      ]);
      return rows.map((line) => line['QUERY PLAN']).join('\n');
    });
    expect(plan, plan).toContain('Bitmap Index Scan on transactions_metadata_idx');
    const [{ predicate }] = await sqlRows<{ predicate: string }>(
      api,
      `SELECT pg_get_expr(indpred, indrelid) AS predicate
         FROM pg_index WHERE indexrelid = 'transactions_metadata_idx'::regclass`,
    );
    expect(predicate).toBe("(metadata <> '{}'::jsonb)");
  });

  it('bad filters are 400 naming the parameter', async () => {
    const get = (path: string) => api.request('GET', path, { key: tenant.posterKey });
    for (const bad of ['{tier:gold}', '[1]', '"gold"', '42', 'null']) {
      expectValidationError(await get(`/v1/accounts?metadata=${encodeURIComponent(bad)}`), 'metadata');
      expectValidationError(await get(`/v1/transactions?metadata=${encodeURIComponent(bad)}`), 'metadata');
    }
    expectValidationError(await get('/v1/transactions?status=settled'), 'status');
    expectValidationError(await get('/v1/accounts?currency=XYZ1'), 'currency');
    expectValidationError(await get('/v1/accounts?limit=0'), 'limit');
    expectError(await get('/v1/accounts?colour=blue'), 400, 'VALIDATION_FAILED');
  });
});

describe('journal positions', () => {
  let tenant: TestTenant;
  beforeAll(async () => {
    tenant = await setupTenant(api, 'journal');
    await createAccount(api, tenant.adminKey, {
      code: 'assets:cash',
      currency: 'USD',
      normalBalance: 'debit',
      allowNegative: true,
    });
    await createAccount(api, tenant.adminKey, {
      code: 'income:sales',
      currency: 'USD',
      normalBalance: 'credit',
      allowNegative: true,
    });
  });

  function expectIncreasingPerStripe(transactions: any[]) {
    const last = new Map<number, bigint>();
    for (const { journal } of transactions) {
      expect(journal.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(Number.isInteger(journal.stripe) && journal.stripe >= 0).toBe(true);
      expect(journal.seq).toMatch(/^[1-9]\d*$/);
      const seq = BigInt(journal.seq);
      if (last.has(journal.stripe)) expect(seq).toBeGreaterThan(last.get(journal.stripe)!);
      last.set(journal.stripe, seq);
    }
  }

  it('each transaction, hold, capture and reversal has {stripe, seq, hash}; seq grows within a stripe', async () => {
    const made: any[] = [];
    for (let index = 0; index < 8; index++)
      made.push(await mustPost(api, tenant.posterKey, transfer('assets:cash', 'income:sales', String(index + 1))));
    made.push(await mustPost(api, tenant.posterKey, hold('assets:cash', 'income:sales', '9')));
    made.push((await postWithKey(api, tenant.posterKey, `/v1/transactions/${made.at(-1).id}/post`)).body);
    made.push((await postWithKey(api, tenant.posterKey, `/v1/transactions/${made[0].id}/reverse`)).body);
    expectIncreasingPerStripe(made);
    expect(new Set(made.map((transaction) => transaction.journal.hash)).size).toBe(made.length);
    for (const transaction of made)
      expect((await getTransaction(api, tenant.posterKey, transaction.id)).journal).toEqual(transaction.journal);
  });

  it('concurrent postings never share a journal position', async () => {
    const made = await Promise.all(
      Array.from({ length: 30 }, () => mustPost(api, tenant.posterKey, transfer('assets:cash', 'income:sales', '1'))),
    );
    const positions = made.map((transaction) => `${transaction.journal.stripe}:${transaction.journal.seq}`);
    expect(new Set(positions).size).toBe(30);
    // Ids are taken before the stripe, so only the positions are ordered: per stripe, 1..n without gaps.
    const all = (await readAllPages(api, tenant.posterKey, '/v1/transactions', 200)).items;
    const seqsByStripe = new Map<number, number[]>();
    for (const { journal } of all)
      seqsByStripe.set(journal.stripe, [...(seqsByStripe.get(journal.stripe) ?? []), Number(journal.seq)]);
    for (const seqs of seqsByStripe.values())
      expect(seqs.sort((a, b) => a - b)).toEqual(seqs.map((_, index) => index + 1));
  });
});
