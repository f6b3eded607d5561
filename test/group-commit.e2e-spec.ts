import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type GroupWritten, PostingGroups } from '@ledger/ledger';
import pg from 'pg';
import { GroupTransaction } from '../libs/ledger/src/transactions/group-transaction';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { type ApiHarness, type ApiResponse, TEST_OPERATOR_TOKEN, startApi } from './support/api-harness';
import {
  DAY_MS,
  type TestTenant,
  createAccount,
  expectError,
  isoFromNow,
  mustPost,
  postTransaction,
  postWithKey,
  setupTenant,
  sqlRows,
  transfer,
} from './support/ledger-fixtures';

// Groups are forced, not hoped for: the test holds a lock that the group in flight needs, fires the
// next requests, and waits until the API has all of them queued; releasing the lock then writes them
// as one group. Which groups were written is read from the API (its listener) and from the database
// (the rows one transaction wrote share its xmin).

let api: ApiHarness;
let groups: PostingGroups;
let written: GroupWritten[] = [];

beforeAll(async () => {
  api = await startApi();
  groups = api.app.get(PostingGroups);
  groups.onGroupWritten((group) => written.push(group));
});
afterAll(async () => {
  await api?.close();
});
beforeEach(() => {
  written = [];
});

const ACCOUNTS = [
  { code: 'assets:cash', normalBalance: 'debit' },
  { code: 'assets:empty', normalBalance: 'debit' },
  { code: 'assets:gate-a', normalBalance: 'debit' },
  { code: 'assets:gate-b', normalBalance: 'debit' },
  { code: 'income:sales', normalBalance: 'credit' },
] as const;

async function setupLedger(name: string): Promise<TestTenant> {
  const tenant = await setupTenant(api, name);
  for (const account of ACCOUNTS) await createAccount(api, tenant.adminKey, { ...account, currency: 'USD' });
  return tenant;
}

/** The backends of the test transactions now holding an account's row lock (see holdAccount). */
const openGates = new Set<number>();

/** A test transaction holding an account's row lock until released. */
async function holdAccount(tenant: TestTenant, code: string) {
  const client = new pg.Client({ connectionString: api.db.url });
  await client.connect();
  await client.query('BEGIN');
  await client.query('SELECT 1 FROM accounts WHERE tenant_id = $1 AND code = $2 FOR UPDATE', [tenant.tenantId, code]);
  const [{ pid }] = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows as [{ pid: number }];
  openGates.add(pid);
  return {
    async release() {
      openGates.delete(pid);
      await client.query('COMMIT');
      await client.end();
    },
  };
}

/**
 * The backends waiting, directly or behind another waiter, for a lock that an open gate holds: the API's
 * group transactions. Only those: the API's own ANALYZE may wait for an autovacuum meanwhile.
 */
async function lockWaiters(): Promise<number[]> {
  const rows = await sqlRows<{ pid: number }>(
    api,
    `WITH RECURSIVE blocked AS (
       SELECT pid FROM pg_stat_activity WHERE pg_blocking_pids(pid) && $1::int[]
       UNION
       SELECT waiting.pid FROM pg_stat_activity waiting JOIN blocked ON blocked.pid = ANY(pg_blocking_pids(waiting.pid))
     )
     SELECT pid FROM blocked ORDER BY pid`,
    [[...openGates]],
  );
  return rows.map((row) => row.pid);
}

async function until(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let round = 0; round < 3_000; round++) {
    if (await condition()) return;
    await sleep(10);
  }
  throw new Error(`never: ${what}`);
}

/** A group in flight, blocked on the held account: what is posted now queues behind it. */
async function blockedGroup(tenant: TestTenant, gate: string) {
  const held = await holdAccount(tenant, gate);
  const first = postTransaction(api, tenant.posterKey, transfer(gate, 'income:sales', '1'));
  await until(async () => (await lockWaiters()).length === 1, 'the first posting waits for the held account');
  return { held, first };
}

/** Fires the requests and waits until every one of them is queued behind the group in flight. */
function queued(tenant: TestTenant, requests: (() => Promise<ApiResponse>)[]) {
  const answers = Promise.all(requests.map((send) => send()));
  return {
    answers,
    all: until(() => groups.waiting(tenant.tenantId) === requests.length, 'every request is queued'),
  };
}

/** Transactions grouped by the database transaction that wrote them (their xmin): the group sizes. */
async function writtenTogether(ids: string[]): Promise<number[]> {
  const rows = await sqlRows<{ n: number }>(
    api,
    'SELECT count(*)::int AS n FROM transactions WHERE id = ANY($1::uuid[]) GROUP BY xmin::text ORDER BY n',
    [ids],
  );
  return rows.map((row) => row.n);
}

async function transactionsOf(tenant: TestTenant): Promise<number> {
  const [row] = await sqlRows<{ n: number }>(api, 'SELECT count(*)::int AS n FROM transactions WHERE tenant_id = $1', [
    tenant.tenantId,
  ]);
  return row!.n;
}

describe('group commit of POST /v1/transactions', () => {
  it('posts once per key when requests with one key race into one group, and replays to the others', async () => {
    const tenant = await setupLedger('group duplicates');
    const { held, first } = await blockedGroup(tenant, 'assets:gate-a');
    const shared = randomUUID();
    const reused = randomUUID();
    const distinct = Array.from({ length: 5 }, () => randomUUID());
    const send = (key: string, amount: string) => () =>
      postTransaction(api, tenant.posterKey, transfer('assets:cash', 'income:sales', amount), key);
    const { answers, all } = queued(tenant, [
      ...distinct.map((key) => send(key, '10')),
      send(shared, '20'),
      send(shared, '20'),
      send(shared, '20'),
      send(reused, '30'),
      send(reused, '31'),
    ]);
    await all;
    await held.release();
    expect((await first).status).toBe(201);
    const results = await answers;

    const distinctAnswers = results.slice(0, 5);
    for (const answer of distinctAnswers) expect(answer.status).toBe(201);
    const sharedAnswers = results.slice(5, 8);
    for (const answer of sharedAnswers) expect(answer.status).toBe(201);
    expect(new Set(sharedAnswers.map((answer) => answer.body.id)).size).toBe(1);
    expect(sharedAnswers.filter((answer) => answer.headers.get('idempotent-replayed') === 'true')).toHaveLength(2);
    const reusedAnswers = results.slice(8);
    expect(reusedAnswers.map((answer) => answer.status).sort()).toEqual([201, 422]);
    expectError(reusedAnswers.find((answer) => answer.status === 422)!, 422, 'IDEMPOTENCY_KEY_REUSED');

    // 1 (the gate) + 5 + one for the shared key + one for the reused key.
    expect(await transactionsOf(tenant)).toBe(8);
    const firstOfEachKey = [
      ...distinctAnswers,
      sharedAnswers.find((answer) => !answer.headers.has('idempotent-replayed'))!,
    ];
    firstOfEachKey.push(reusedAnswers.find((answer) => answer.status === 201)!);
    expect(written[0]).toEqual({ lane: 'postings', requests: 1, items: 1, attempt: 'group' });
    // Every key's first request in the second group; the later ones wait for it, then replay.
    expect(written[1]).toEqual({ lane: 'postings', requests: 7, items: 7, attempt: 'group' });
    expect(await writtenTogether(firstOfEachKey.map((answer) => answer.body.id))).toEqual([7]);
  });

  it('answers a refused posting on its own, beside the accepted ones of its group', async () => {
    const tenant = await setupLedger('group refusals');
    const earlier = await mustPost(
      api,
      tenant.posterKey,
      transfer('assets:cash', 'income:sales', '5', 'USD', { externalRef: 'order-1' }),
    );
    written = [];
    const { held, first } = await blockedGroup(tenant, 'assets:gate-a');
    const keys = Array.from({ length: 7 }, () => randomUUID());
    const bodies = [
      transfer('assets:cash', 'income:sales', '100'),
      transfer('assets:cash', 'assets:empty', '1'),
      transfer('assets:cash', 'income:sales', '200'),
      transfer('assets:cash', 'income:sales', '6', 'USD', { externalRef: 'order-1' }),
      transfer('assets:cash', 'income:sales', '5', 'USD', { externalRef: 'order-1' }),
      transfer('assets:cash', 'assets:nowhere', '1'),
      transfer('assets:cash', 'income:sales', '300'),
    ];
    const { answers, all } = queued(
      tenant,
      bodies.map((body, index) => () => postTransaction(api, tenant.posterKey, body, keys[index])),
    );
    await all;
    await held.release();
    expect((await first).status).toBe(201);
    const [ok1, funds, ok2, conflict, existing, missing, ok3] = await answers;

    expect(written.map((group) => group.items)).toEqual([1, 7]);
    for (const answer of [ok1!, ok2!, ok3!]) expect(answer.status).toBe(201);
    expectError(funds!, 422, 'INSUFFICIENT_FUNDS');
    expectError(conflict!, 409, 'EXTERNAL_REF_CONFLICT');
    expect(existing!.status).toBe(201);
    expect(existing!.body.id).toBe(earlier.id);
    expect(existing!.headers.get('ledger-existing')).toBe('true');
    expectError(missing!, 404, 'ACCOUNT_NOT_FOUND');
    expect(await writtenTogether([ok1!.body.id, ok2!.body.id, ok3!.body.id])).toEqual([3]);
    // earlier + the gate + three.
    expect(await transactionsOf(tenant)).toBe(5);
    const balances = await api.request('GET', '/v1/accounts/assets:cash', { key: tenant.posterKey });
    expect(balances.body.balances.posted).toBe('605');

    // Each refusal is stored under its own key: sent again, it is replayed, still writing nothing.
    const again = await postTransaction(api, tenant.posterKey, bodies[1], keys[1]);
    expectError(again, 422, 'INSUFFICIENT_FUNDS');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await transactionsOf(tenant)).toBe(5);
  });

  it('writes the group again after its connection was terminated, every posting once', async () => {
    const tenant = await setupLedger('group retry');
    const gateB = await holdAccount(tenant, 'assets:gate-b');
    const { held, first } = await blockedGroup(tenant, 'assets:gate-a');
    const bodies = Array.from({ length: 6 }, (_, index) => transfer('assets:gate-b', 'income:sales', `${index + 1}`));
    const { answers, all } = queued(
      tenant,
      bodies.map((body) => () => postTransaction(api, tenant.posterKey, body)),
    );
    await all;
    await held.release();
    expect((await first).status).toBe(201);
    // The second group now waits for gate B: its backend is terminated under it.
    await until(async () => (await lockWaiters()).length === 1, 'the second group waits for gate B');
    const [victim] = await lockWaiters();
    await sqlRows(api, 'SELECT pg_terminate_backend($1)', [victim]);
    await until(async () => {
      const waiters = await lockWaiters();
      return waiters.length === 1 && waiters[0] !== victim;
    }, 'the group is tried again on another connection');
    await gateB.release();
    const results = await answers;

    for (const answer of results) expect(answer.status).toBe(201);
    expect(written.map((group) => group.items)).toEqual([1, 6]);
    expect(written[1]!.attempt).toBe('retry');
    const ids = results.map((answer) => answer.body.id);
    expect(await writtenTogether(ids)).toEqual([6]);
    expect(await transactionsOf(tenant)).toBe(7);
    const balances = await api.request('GET', '/v1/accounts/assets:gate-b', { key: tenant.posterKey });
    expect(balances.body.balances.posted).toBe('21');

    // The operator sees the groups: how many, by attempt, and how many postings each held.
    const metrics = await api.request('GET', '/metrics', { key: TEST_OPERATOR_TOKEN });
    expect(metrics.status).toBe(200);
    expect(metrics.body).toMatch(/^ledger_posting_groups_total\{lane="postings",attempt="retry"\} [1-9]/m);
    expect(metrics.body).toMatch(/^ledger_posting_group_items_bucket\{le="8",lane="postings"\} [1-9]/m);
  });
});

describe('group commit of captures, voids and reversals', () => {
  const hold = (amount: string) =>
    mustPost(
      api,
      tenant.posterKey,
      transfer('assets:cash', 'income:sales', amount, 'USD', { pending: { expiresAt: isoFromNow(DAY_MS) } }),
    );
  let tenant: TestTenant;
  const send =
    (path: string, body: unknown = {}, key = randomUUID()) =>
    () =>
      postWithKey(api, tenant.posterKey, path, body, key);

  it('writes them with the postings of their group, and two naming one hold or transaction in turn', async () => {
    tenant = await setupLedger('group resolutions');
    const [first, second, third] = [await hold('100'), await hold('200'), await hold('300')];
    const original = await mustPost(api, tenant.posterKey, transfer('assets:cash', 'income:sales', '50'));
    written = [];
    const { held, first: gate } = await blockedGroup(tenant, 'assets:gate-a');
    const captureKey = randomUUID();
    const refusedKey = randomUUID();
    const { answers, all } = queued(tenant, [
      send(`/v1/transactions/${first.id}/post`),
      send(`/v1/transactions/${first.id}/void`, {}, refusedKey),
      send(`/v1/transactions/${second.id}/post`, { amount: '150' }, captureKey),
      send(`/v1/transactions/${second.id}/post`, { amount: '150' }, captureKey),
      send(`/v1/transactions/${third.id}/void`),
      send(`/v1/transactions/${original.id}/reverse`),
      send(`/v1/transactions/${original.id}/reverse`),
      send(`/v1/transactions/${original.id}/post`),
      send(`/v1/transactions/${randomUUID()}/void`),
      () => postTransaction(api, tenant.posterKey, transfer('assets:cash', 'income:sales', '7')),
    ]);
    await all;
    await held.release();
    expect((await gate).status).toBe(201);
    const [capture, voidLate, partial, partialAgain, voided, reversal, reversalLate, notAHold, missing, posting] =
      await answers;

    for (const answer of [capture!, partial!, voided!, reversal!, posting!]) expect(answer.status).toBe(201);
    expect(capture!.body).toMatchObject({ status: 'posted', holdId: first.id });
    expect(partial!.body.entries.map((entry: { amount: string }) => entry.amount)).toEqual(['150', '150']);
    expect(voided!.body).toMatchObject({ status: 'voided', holdId: third.id });
    expect(reversal!.body.reversesId).toBe(original.id);
    expectError(notAHold!, 422, 'NOT_A_HOLD');
    expectError(missing!, 404, 'NOT_FOUND');
    // The same key again: a replay. Another key for the hold or transaction just taken: its own refusal.
    expect(partialAgain!.status).toBe(201);
    expect(partialAgain!.body.id).toBe(partial!.body.id);
    expect(partialAgain!.headers.get('idempotent-replayed')).toBe('true');
    expectError(voidLate!, 409, 'HOLD_ALREADY_RESOLVED');
    expectError(reversalLate!, 409, 'ALREADY_REVERSED');

    // The gate; then all but the four that name what an earlier request names (the capture's key, its
    // hold, the reversed transaction); then those, but the capture of the reversed transaction, which
    // names what the second reversal names; then that one.
    expect(written).toEqual([
      { lane: 'postings', requests: 1, items: 1, attempt: 'group' },
      { lane: 'postings', requests: 6, items: 6, attempt: 'group' },
      { lane: 'postings', requests: 3, items: 3, attempt: 'group' },
      { lane: 'postings', requests: 1, items: 1, attempt: 'group' },
    ]);
    const createdTogether = [capture!, partial!, voided!, reversal!, posting!].map((answer) => answer.body.id);
    expect(await writtenTogether(createdTogether)).toEqual([5]);
    // 3 holds, the original, the gate, and the five written together.
    expect(await transactionsOf(tenant)).toBe(10);
    const cash = await api.request('GET', '/v1/accounts/assets:cash', { key: tenant.posterKey });
    // Posted: 50 - 50 (reversed) + 7 + 100 + 150; nothing held any more.
    expect(cash.body.balances).toMatchObject({ posted: '257', pending: '0' });

    // A refusal is stored under its key like a posting's.
    const again = await send(`/v1/transactions/${first.id}/void`, {}, refusedKey)();
    expectError(again, 409, 'HOLD_ALREADY_RESOLVED');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('group commit of POST /v1/transactions/batch', () => {
  const batch =
    (tenant: TestTenant, transactions: unknown[], key = randomUUID()) =>
    () =>
      postWithKey(api, tenant.posterKey, '/v1/transactions/batch', { transactions }, key);
  const batchGroups = () => written.filter((group) => group.lane === 'batches');

  /** The number of requests of each group transaction tried with any of these keys, in the order they began. */
  function attemptsOf(tenant: TestTenant, keys: readonly string[]): number[] {
    const names = new Set(keys.map((key) => `${tenant.tenantId}:${key}`));
    const attempts: number[] = [];
    const groupTransaction = api.app.get(GroupTransaction);
    const writePlanned = groupTransaction.writePlanned.bind(groupTransaction);
    const spy = vi.spyOn(groupTransaction, 'writePlanned').mockImplementation((tenantId, group, taking, again) => {
      if (group.some(({ key }) => names.has(key.name))) attempts.push(group.length);
      return writePlanned(tenantId, group, taking, again);
    });
    onTestFinished(() => spy.mockRestore());
    return attempts;
  }

  /** The lane's two groups in flight, both waiting for the held account. */
  async function twoInFlight(tenant: TestTenant) {
    const held = await holdAccount(tenant, 'assets:gate-a');
    const answers = Promise.all([
      batch(tenant, [transfer('assets:gate-a', 'income:sales', '1')])(),
      batch(tenant, [transfer('assets:gate-a', 'income:sales', '2')])(),
    ]);
    await until(async () => (await lockWaiters()).length === 2, 'both batches in flight wait for the held account');
    return { held, answers };
  }

  it('writes the batches queued behind the two groups in flight as one group, each answered on its own', async () => {
    const tenant = await setupLedger('batch groups');
    const inFlight = await twoInFlight(tenant);
    const shared = randomUUID();
    const requests = [
      batch(tenant, [transfer('assets:cash', 'income:sales', '100'), transfer('assets:cash', 'assets:empty', '1')]),
      batch(tenant, [transfer('assets:cash', 'income:sales', '200')], shared),
      batch(tenant, [transfer('assets:cash', 'income:sales', '200')], shared),
      batch(tenant, [{ entries: [] }, transfer('assets:cash', 'income:sales', '300')]),
    ];
    const answers = Promise.all(requests.map((send) => send()));
    await until(() => groups.waiting(tenant.tenantId, 'batches') === requests.length, 'every batch is queued');
    await inFlight.held.release();
    for (const answer of await inFlight.answers) expect(answer.status).toBe(201);
    const [mixed, sharedFirst, sharedAgain, invalid] = await answers;

    expect(mixed!.status).toBe(201);
    expect(mixed!.body.results.map((result: { status: string }) => result.status)).toEqual(['created', 'error']);
    expect(mixed!.body.results[1].error.code).toBe('INSUFFICIENT_FUNDS');
    const invalidResults = invalid!.body.results.map((result: { index: number; status: string }) => [
      result.index,
      result.status,
    ]);
    expect(invalidResults).toEqual([
      [0, 'error'],
      [1, 'created'],
    ]);
    // The second request with a key waits for the first one's group, then replays its answer.
    expect(sharedAgain!.body).toEqual(sharedFirst!.body);
    expect(sharedAgain!.headers.get('idempotent-replayed')).toBe('true');
    expect(sharedFirst!.headers.has('idempotent-replayed')).toBe(false);

    const ids = [mixed!, sharedFirst!, invalid!].map(
      (answer) => answer.body.results.find((result: { status: string }) => result.status === 'created').transaction.id,
    );
    expect(await writtenTogether(ids)).toEqual([3]);
    expect(batchGroups().map((group) => group.requests)).toEqual(expect.arrayContaining([1, 1, 3]));
    // The two in flight and one transaction for each of the three queued batches.
    expect(await transactionsOf(tenant)).toBe(5);
    const balances = await api.request('GET', '/v1/accounts/income:sales', { key: tenant.posterKey });
    expect(balances.body.balances.posted).toBe('603');
  });

  it('writes each batch of a group alone when the group fails twice, every item once', async () => {
    const tenant = await setupLedger('batch group alone');
    const gateB = await holdAccount(tenant, 'assets:gate-b');
    const inFlight = await twoInFlight(tenant);
    const keys = [randomUUID(), randomUUID(), randomUUID()];
    const attempts = attemptsOf(tenant, keys);
    const bodies = [1, 2, 3].map((amount) => [transfer('assets:gate-b', 'income:sales', `${amount}`)]);
    const answers = Promise.all(bodies.map((body, index) => batch(tenant, body, keys[index])()));
    await until(() => groups.waiting(tenant.tenantId, 'batches') === bodies.length, 'every batch is queued');
    await inFlight.held.release();
    for (const answer of await inFlight.answers) expect(answer.status).toBe(201);
    // Each try of the three together is terminated while it waits for gate B (a try may also fail on its
    // own, a connection the pool handed out as the server closed it), until they are tried one by one.
    const terminated = new Set<number>();
    const newWaiter = async () => {
      const waiters = await lockWaiters();
      return waiters.length === 1 && !terminated.has(waiters[0]!) ? waiters[0] : undefined;
    };
    await until(async () => {
      if (attempts.at(-1) === 1) return true;
      const waiter = await newWaiter();
      if (waiter !== undefined && attempts.at(-1) === 3) {
        terminated.add(waiter);
        await sqlRows(api, 'SELECT pg_terminate_backend($1)', [waiter]);
      }
      return false;
    }, 'the batches are tried alone');
    await until(async () => (await newWaiter()) !== undefined, 'the first batch waits alone');
    await gateB.release();
    const results = await answers;

    for (const answer of results) expect(answer.status).toBe(201);
    expect(terminated.size).toBeGreaterThan(0);
    expect(attempts).toEqual([3, 3, 1, 1, 1]);
    const alone = batchGroups().filter((group) => group.attempt === 'alone');
    expect(alone.map((group) => group.requests)).toEqual([1, 1, 1]);
    const ids = results.map((answer) => answer.body.results[0].transaction.id);
    expect(await writtenTogether(ids)).toEqual([1, 1, 1]);
    expect(await transactionsOf(tenant)).toBe(5);
    const balances = await api.request('GET', '/v1/accounts/assets:gate-b', { key: tenant.posterKey });
    expect(balances.body.balances.posted).toBe('6');
  });
});
