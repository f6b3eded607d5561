import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { ApiHarness, ApiResponse } from './api-harness';

/** A tenant with its admin key and a poster key. */
export interface TestTenant {
  tenantId: string;
  adminKey: string;
  posterKey: string;
}

/**
 * What the helpers below need of an API: an in-process harness or the built processes of the fault
 * suite (its LedgerStack) both serve.
 */
export type LedgerClient = Pick<ApiHarness, 'request' | 'createTenant'>;

export interface Leg {
  account: string;
  direction: 'debit' | 'credit';
  amount: string;
  currency: string;
}

export async function createApiKey(
  api: LedgerClient,
  adminKey: string,
  roles: string[],
  name = roles.join('+'),
): Promise<string> {
  const created = await api.request('POST', '/v1/api-keys', {
    key: adminKey,
    idempotencyKey: randomUUID(),
    body: { name, roles },
  });
  if (created.status !== 201)
    throw new Error(`api key creation failed: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.key;
}

export async function setupTenant(api: LedgerClient, name = 'test tenant'): Promise<TestTenant> {
  const { tenantId, adminKey } = await api.createTenant(name);
  const posterKey = await createApiKey(api, adminKey, ['poster']);
  return { tenantId, adminKey, posterKey };
}

export interface NewAccountBody {
  code: string;
  currency: string;
  normalBalance: 'debit' | 'credit';
  allowNegative?: boolean;
  name?: string;
  metadata?: Record<string, unknown>;
}

/** Creates an account and returns the API's view of it; fails the test setup on anything but 201. */
export async function createAccount(api: LedgerClient, adminKey: string, body: NewAccountBody): Promise<any> {
  const created = await api.request('POST', '/v1/accounts', { key: adminKey, idempotencyKey: randomUUID(), body });
  if (created.status !== 201)
    throw new Error(`account creation failed: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body;
}

/** A two-leg transfer body: `debit` is debited, `credit` is credited. */
export function transfer(
  debit: string,
  credit: string,
  amount: string,
  currency = 'USD',
  extra: Record<string, unknown> = {},
) {
  return {
    ...extra,
    entries: [
      { account: debit, direction: 'debit', amount, currency },
      { account: credit, direction: 'credit', amount, currency },
    ] satisfies Leg[],
  };
}

export function postTransaction(
  api: LedgerClient,
  key: string,
  body: unknown,
  idempotencyKey: string = randomUUID(),
): Promise<ApiResponse> {
  return api.request('POST', '/v1/transactions', { key, idempotencyKey, body });
}

/** Posts and insists on 201; returns the transaction. */
export async function mustPost(api: LedgerClient, key: string, body: unknown): Promise<any> {
  const posted = await postTransaction(api, key, body);
  if (posted.status !== 201) throw new Error(`posting failed: ${posted.status} ${JSON.stringify(posted.body)}`);
  return posted.body;
}

/** The documented error shape, exactly: `{"error": {"code", "message", "details"}}`. */
export function expectError(response: ApiResponse, status: number, code: string): void {
  const shown = JSON.stringify(response.body)?.slice(0, 600);
  expect(response.status, `status of ${shown}`).toBe(status);
  expect(response.headers.get('content-type') ?? '', 'an error is JSON').toMatch(/^application\/json/);
  expect(response.body, `body ${shown}`).toEqual({
    error: { code, message: expect.any(String), details: expect.any(Object) },
  });
  expect(Object.keys(response.body)).toEqual(['error']);
  expect(Object.keys(response.body.error).sort()).toEqual(['code', 'details', 'message']);
  expect(response.body.error.message.length).toBeGreaterThan(0);
  expect(Array.isArray(response.body.error.details)).toBe(false);
}

/** 400 VALIDATION_FAILED whose details name the field `path` (dotted, e.g. "entries.0.amount"). */
export function expectValidationError(response: ApiResponse, path: string): void {
  expectError(response, 400, 'VALIDATION_FAILED');
  const fields: { path: string; message: string }[] = response.body.error.details.fields;
  expect(Array.isArray(fields), `details.fields in ${JSON.stringify(response.body)}`).toBe(true);
  expect(fields.map((field) => field.path)).toContain(path);
  for (const field of fields) expect(typeof field.message).toBe('string');
}

async function count(api: ApiHarness, table: string, tenantId: string): Promise<number> {
  const rows = await api.db.database.sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = $1`,
    [tenantId],
  );
  return rows[0]!.n;
}

/**
 * What a request could have written, seen both through the API (accounts' balances and versions,
 * the transactions list) and in the tables themselves. Idempotency rows are left out on purpose:
 * a refused request's stored outcome is a write the contract asks for.
 */
export async function ledgerState(api: ApiHarness, tenant: TestTenant, accountCodes: readonly string[]) {
  const accounts: Record<string, unknown> = {};
  for (const code of accountCodes) {
    const account = await api.request('GET', `/v1/accounts/${encodeURIComponent(code)}`, { key: tenant.posterKey });
    expect(account.status).toBe(200);
    accounts[code] = { balances: account.body.balances, version: account.body.version };
  }
  const list = await api.request('GET', '/v1/transactions?limit=200', { key: tenant.posterKey });
  expect(list.status).toBe(200);
  return {
    accounts,
    transactionIds: list.body.data.map((transaction: { id: string }) => transaction.id),
    rows: {
      accounts: await count(api, 'accounts', tenant.tenantId),
      transactions: await count(api, 'transactions', tenant.tenantId),
      entries: await count(api, 'entries', tenant.tenantId),
      outboxEvents: await count(api, 'outbox_events', tenant.tenantId),
      apiKeys: await count(api, 'api_keys', tenant.tenantId),
    },
  };
}

/** Runs `act` and checks that the ledger state is exactly the same afterwards. */
export async function expectNothingWritten<T>(
  api: ApiHarness,
  tenant: TestTenant,
  accountCodes: readonly string[],
  act: () => Promise<T>,
): Promise<T> {
  const before = await ledgerState(api, tenant, accountCodes);
  const result = await act();
  expect(await ledgerState(api, tenant, accountCodes)).toEqual(before);
  return result;
}

export async function sqlRows<Row extends object>(
  api: ApiHarness,
  text: string,
  params: unknown[] = [],
): Promise<Row[]> {
  return api.db.database.sql.query<Row>(text, params);
}

/** Follows a `{data, nextCursor}` list to its end, failing on a loop. */
export async function readAllPages(
  api: ApiHarness,
  key: string,
  path: string,
  limit: number,
  pagesMax = 100,
): Promise<{ items: any[]; pages: number }> {
  const items: any[] = [];
  let cursor: string | null = null;
  for (let page = 1; page <= pagesMax; page++) {
    const separator = path.includes('?') ? '&' : '?';
    const url = `${path}${separator}limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const response = await api.request('GET', url, { key });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.data.length).toBeLessThanOrEqual(limit);
    items.push(...response.body.data);
    cursor = response.body.nextCursor;
    if (cursor === null) return { items, pages: page };
  }
  throw new Error(`${path} did not end within ${pagesMax} pages`);
}

/**
 * The whole event feed of a tenant, followed page by page with `after`. The feed only serves events of
 * transactions older than every transaction still running on the server, so it is polled until
 * `ready` holds (or the deadline passes; the caller's assertions then say what is missing).
 */
export async function readEventFeed(
  api: ApiHarness,
  key: string,
  options: { limit?: number; ready?: (events: any[]) => boolean; timeoutMs?: number } = {},
): Promise<{ events: any[]; pages: number; cursor: string }> {
  const deadline = Date.now() + (options.timeoutMs ?? 5_000);
  for (;;) {
    const events: any[] = [];
    let after: string | undefined;
    let pages = 0;
    for (;;) {
      const query = `limit=${options.limit ?? 100}${after === undefined ? '' : `&after=${encodeURIComponent(after)}`}`;
      const response = await api.request('GET', `/v1/events?${query}`, { key });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(typeof response.body.nextCursor).toBe('string');
      pages++;
      if (response.body.data.length === 0) {
        if (after !== undefined) expect(response.body.nextCursor, 'an empty page keeps the cursor').toBe(after);
        after = response.body.nextCursor;
        break;
      }
      events.push(...response.body.data);
      after = response.body.nextCursor;
      if (pages > 1000) throw new Error('event feed did not end');
    }
    if (!options.ready || options.ready(events) || Date.now() > deadline) return { events, pages, cursor: after! };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const DAY_MS = 24 * 3600 * 1000;

/** An ISO time `ms` milliseconds from now (negative: in the past). */
export function isoFromNow(ms: number): string {
  return new Date(Date.now() + ms).toISOString();
}

/** The API's view of an account now; fails on anything but 200. */
export async function getAccount(api: LedgerClient, key: string, ref: string): Promise<any> {
  const response = await api.request('GET', `/v1/accounts/${encodeURIComponent(ref)}`, { key });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

/** The API's view of a transaction now; fails on anything but 200. */
export async function getTransaction(api: LedgerClient, key: string, id: string): Promise<any> {
  const response = await api.request('GET', `/v1/transactions/${id}`, { key });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
}

/** A POST with a fresh Idempotency-Key (and no body unless one is given). */
export function postWithKey(
  api: ApiHarness,
  key: string,
  path: string,
  body?: unknown,
  idempotencyKey: string = randomUUID(),
): Promise<ApiResponse> {
  return api.request('POST', path, { key, idempotencyKey, body });
}

/** A tenant with an `equity:seed` account that may go negative, to fund the others from. */
export async function seededTenant(api: ApiHarness, name: string): Promise<TestTenant> {
  const tenant = await setupTenant(api, name);
  await createAccount(api, tenant.adminKey, {
    code: 'equity:seed',
    currency: 'USD',
    normalBalance: 'credit',
    allowNegative: true,
  });
  return tenant;
}

/** A fresh, unfunded credit-normal wallet (never negative) and a shop account. */
export async function walletAndShop(api: ApiHarness, tenant: TestTenant) {
  const name = randomUUID().slice(0, 8);
  const wallet = `liabilities:${name}:wallet`;
  const shop = `liabilities:${name}:shop`;
  await createAccount(api, tenant.adminKey, { code: wallet, currency: 'USD', normalBalance: 'credit' });
  await createAccount(api, tenant.adminKey, { code: shop, currency: 'USD', normalBalance: 'credit' });
  return { wallet, shop, codes: ['equity:seed', wallet, shop] };
}
