import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_SOURCE_IMPORTS } from '../libs/imports/src/importing/imports.sql';
import { LINES_BY_STATUS } from '../libs/reconciliation/src/matching/line-status.sql';
import { type ApiHarness, startApi } from './support/api-harness';
import {
  type TestTenant,
  createAccount,
  createApiKey,
  expectError,
  expectValidationError,
  mustPost,
  readAllPages,
  setupTenant,
  sqlRows,
  transfer,
} from './support/ledger-fixtures';
import { bankCsv, createSource, statementDay, uploadStatement } from './support/reconciliation-fixtures';

// GET /v1/imports and GET /v1/statement-lines: newest first, by source, lines by whether a match holds
// them, paged, for the roles that read imports, and only within the caller's tenant.

let api: ApiHarness;
let tenant: TestTenant;
let keys: { finance: string; auditor: string; admin: string; poster: string };
/** Imports in the order they were made. */
const imports: { id: string; source: string }[] = [];

const ids = (items: { id: string }[]) => items.map((item) => item.id);

async function importCsv(source: string, rows: string[]): Promise<void> {
  const made = await uploadStatement(api, keys.finance, source, `${randomUUID()}.csv`, bankCsv(rows));
  imports.push({ id: made.id, source });
}

const row = (day: number, amount: string, reference: string) =>
  `${statementDay(day)},${statementDay(day)},${reference},${amount},EUR,${reference},ACME`;

beforeAll(async () => {
  api = await startApi();
  tenant = await setupTenant(api, 'import lists');
  keys = {
    admin: tenant.adminKey,
    poster: tenant.posterKey,
    finance: await createApiKey(api, tenant.adminKey, ['finance']),
    auditor: await createApiKey(api, tenant.adminKey, ['auditor']),
  };
  for (const code of ['assets:bank:eur', 'assets:bank:second']) {
    await createAccount(api, keys.admin, { code, currency: 'EUR', normalBalance: 'debit', allowNegative: true });
  }
  await createAccount(api, keys.admin, {
    code: 'equity:eur',
    currency: 'EUR',
    normalBalance: 'credit',
    allowNegative: true,
  });
  await createSource(api, keys.finance, { name: 'bank-eur', account: 'assets:bank:eur', format: 'csv:bank' });
  await createSource(api, keys.finance, { name: 'bank-second', account: 'assets:bank:second', format: 'csv:bank' });
  await importCsv('bank-eur', [row(-5, '10.00', 'A1'), row(-4, '20.00', 'A2')]);
  await importCsv('bank-second', [row(-4, '30.00', 'B1')]);
  // Two lines of one day: the list orders them by id, and a page may end between them.
  await importCsv('bank-eur', [row(-3, '40.00', 'A3'), row(-1, '50.00', 'A4'), row(-1, '60.00', 'A5')]);
});
afterAll(async () => {
  await api?.close();
});

async function linesOf(importId: string): Promise<{ id: string; amount: string }[]> {
  return (await api.request('GET', `/v1/imports/${importId}/lines`, { key: keys.finance })).body.data;
}

/** Matches a line by hand to a new posting of its amount on the source's account. */
async function matchLine(lineId: string, amountMinor: string, account: string): Promise<string> {
  const posted = await mustPost(api, keys.poster, transfer(account, 'equity:eur', amountMinor, 'EUR'));
  const match = await api.request('POST', '/v1/matches', {
    key: keys.finance,
    idempotencyKey: randomUUID(),
    body: { statementLines: [lineId], entries: [{ transaction: posted.id }] },
  });
  expect(match.status, JSON.stringify(match.body)).toBe(201);
  return match.body.id;
}

describe('GET /v1/imports', () => {
  it('lists imports newest first, paged, as GET /v1/imports/:id shows each', async () => {
    const { items, pages } = await readAllPages(api, keys.finance, '/v1/imports', 2);
    expect(pages).toBe(2);
    expect(ids(items)).toEqual(ids(imports).reverse());
    const one = await api.request('GET', `/v1/imports/${imports[0]!.id}`, { key: keys.finance });
    expect(items.at(-1)).toEqual(one.body);
    expect(items.map((item) => item.lines)).toEqual([3, 1, 2]);
  });

  it('keeps one source by name; an unknown source is 404, a malformed one 400 with the field', async () => {
    const { items } = await readAllPages(api, keys.auditor, '/v1/imports?source=bank-eur', 1);
    expect(ids(items)).toEqual([imports[2]!.id, imports[0]!.id]);
    expect(items.every((item) => item.source === 'bank-eur')).toBe(true);
    expectError(await api.request('GET', '/v1/imports?source=nowhere', { key: keys.finance }), 404, 'NOT_FOUND');
    expectValidationError(await api.request('GET', '/v1/imports?source=%20x', { key: keys.finance }), 'source');
    expectValidationError(await api.request('GET', '/v1/imports?limit=0', { key: keys.finance }), 'limit');
    expectValidationError(await api.request('GET', '/v1/imports?limit=201', { key: keys.finance }), 'limit');
    expectValidationError(await api.request('GET', '/v1/imports?cursor=bm9wZQ', { key: keys.finance }), 'cursor');
    expectValidationError(await api.request('GET', '/v1/imports?sort=asc', { key: keys.finance }), 'sort');
  });

  it('is for finance, auditors and admins; another tenant sees none of these imports', async () => {
    for (const key of [keys.finance, keys.auditor, keys.admin]) {
      expect((await api.request('GET', '/v1/imports?limit=1', { key })).status).toBe(200);
    }
    expectError(await api.request('GET', '/v1/imports', { key: keys.poster }), 403, 'FORBIDDEN');
    expectError(await api.request('GET', '/v1/imports', {}), 401, 'UNAUTHENTICATED');
    const other = await api.createTenant('other imports');
    const listed = await api.request('GET', '/v1/imports', { key: other.adminKey });
    expect(listed.body).toEqual({ data: [], nextCursor: null });
    const bySource = await api.request('GET', '/v1/imports?source=bank-eur', { key: other.adminKey });
    expectError(bySource, 404, 'NOT_FOUND');
    const first = await api.request('GET', '/v1/imports?limit=1', { key: keys.finance });
    const followed = await api.request('GET', `/v1/imports?cursor=${first.body.nextCursor}`, { key: other.adminKey });
    expect(followed.body).toEqual({ data: [], nextCursor: null });
  });
});

describe('GET /v1/statement-lines', () => {
  const listed = async (key: string, query: string, limit: number) =>
    (await readAllPages(api, key, `/v1/statement-lines?${query}`, limit)).items;

  it("lists a source's lines, the latest booking day first, with import, source and match state", async () => {
    const all = await listed(keys.finance, 'source=bank-eur', 1);
    const [a4, a5] = [...(await linesOf(imports[2]!.id)).slice(1)].sort((x, y) => (x.id < y.id ? 1 : -1));
    expect(all.map((line) => line.amount)).toEqual([a4!.amount, a5!.amount, '4000', '2000', '1000']);
    expect(ids(all.slice(0, 2))).toEqual([a4!.id, a5!.id]);
    const oldest = all.at(-1);
    const alone = await api.request('GET', `/v1/statement-lines/${oldest.id}`, { key: keys.finance });
    expect(oldest).toEqual({ ...alone.body, source: 'bank-eur', matched: false });
    expect(oldest.importId).toBe(imports[0]!.id);
    const second = await listed(keys.finance, 'source=bank-second', 5);
    expect(second.map((line) => [line.amount, line.source])).toEqual([['3000', 'bank-second']]);
  });

  it('status=matched and status=unmatched split the lines by whether a match holds them', async () => {
    const [ten, twenty] = await linesOf(imports[0]!.id);
    const [thirty] = await linesOf(imports[1]!.id);
    await matchLine(ten!.id, '1000', 'assets:bank:eur');
    const undone = await matchLine(twenty!.id, '2000', 'assets:bank:eur');
    await matchLine(thirty!.id, '3000', 'assets:bank:second');
    const undo = await api.request('PATCH', `/v1/matches/${undone}`, { key: keys.finance, body: { action: 'undo' } });
    expect(undo.status, JSON.stringify(undo.body)).toBe(200);

    const matched = await listed(keys.finance, 'source=bank-eur&status=matched', 1);
    expect(matched.map((line) => [line.id, line.matched])).toEqual([[ten!.id, true]]);
    const unmatched = await listed(keys.auditor, 'source=bank-eur&status=unmatched', 2);
    expect(unmatched.map((line) => line.amount).sort()).toEqual(['2000', '4000', '5000', '6000']);
    expect(unmatched.every((line) => !line.matched)).toBe(true);
    const flags = await listed(keys.admin, 'source=bank-eur', 10);
    expect(flags.map((line) => line.matched)).toEqual([false, false, false, false, true]);
    expect(await listed(keys.finance, 'source=bank-second&status=unmatched', 5)).toEqual([]);
  });

  it('refuses a missing or bad source, status, limit or cursor with the field; an unknown source is 404', async () => {
    const get = (query: string) => api.request('GET', `/v1/statement-lines?${query}`, { key: keys.finance });
    expectValidationError(await get(''), 'source');
    expectValidationError(await get('source=a%2Fb'), 'source');
    expectValidationError(await get('source=bank-eur&status=open'), 'status');
    expectValidationError(await get('source=bank-eur&limit=-1'), 'limit');
    expectValidationError(await get('source=bank-eur&cursor=%21%21'), 'cursor');
    const importCursor = (await api.request('GET', '/v1/imports?limit=1', { key: keys.finance })).body.nextCursor;
    expectValidationError(await get(`source=bank-eur&cursor=${importCursor}`), 'cursor');
    expectValidationError(await get('source=bank-eur&matched=true'), 'matched');
    expectError(await get('source=nowhere'), 404, 'NOT_FOUND');
  });

  it('is for finance, auditors and admins; another tenant sees none of these lines', async () => {
    const path = '/v1/statement-lines?source=bank-eur';
    expectError(await api.request('GET', path, { key: keys.poster }), 403, 'FORBIDDEN');
    expectError(await api.request('GET', path, {}), 401, 'UNAUTHENTICATED');
    const other = await api.createTenant('other lines');
    expectError(await api.request('GET', path, { key: other.adminKey }), 404, 'NOT_FOUND');
    const otherFinance = await createApiKey(api, other.adminKey, ['finance']);
    await createAccount(api, other.adminKey, { code: 'assets:bank:eur', currency: 'EUR', normalBalance: 'debit' });
    await createSource(api, otherFinance, { name: 'bank-eur', account: 'assets:bank:eur', format: 'csv:bank' });
    for (const status of ['', '&status=unmatched', '&status=matched']) {
      const answer = await api.request('GET', `${path}${status}`, { key: otherFinance });
      expect(answer.body).toEqual({ data: [], nextCursor: null });
    }
    const first = await api.request('GET', `${path}&limit=1`, { key: keys.finance });
    const followed = await api.request('GET', `${path}&cursor=${first.body.nextCursor}`, { key: otherFinance });
    expect(followed.body).toEqual({ data: [], nextCursor: null });
  });
});

describe('the lists of one source on large tables', () => {
  it('page through the source indexes, without sorting or reading the other sources', async () => {
    const big = await api.createTenant('many lines');
    const bigFinance = await createApiKey(api, big.adminKey, ['finance']);
    await createAccount(api, big.adminKey, { code: 'assets:bank', currency: 'EUR', normalBalance: 'debit' });
    for (const name of ['busy', 'quiet'])
      await createSource(api, bigFinance, { name, account: 'assets:bank', format: 'csv:bank' });
    // 4,000 imports and 20,000 lines of `busy`, nine in ten matched; a few of `quiet`.
    for (const statement of MANY_LINES) await sqlRows(api, statement, [big.tenantId]);
    await sqlRows(api, 'ANALYZE statement_imports, statement_lines, matches');
    const sources = await sqlRows<{ id: string; name: string }>(
      api,
      'SELECT id, name FROM statement_sources WHERE tenant_id = $1',
      [big.tenantId],
    );
    const plan = async (statement: { text: string; parameterNames: readonly string[] }, source: string) => {
      const values: Record<string, unknown> = {
        tenantId: big.tenantId,
        sourceId: sources.find((row) => row.name === source)!.id,
        beforeId: 'ffffffff-ffff-ffff-ffff-ffffffffffff',
        beforeBookedOn: 'infinity',
        limit: 51,
      };
      const params = statement.parameterNames.map((name) => values[name]);
      const rows = await sqlRows<{ 'QUERY PLAN': string }>(api, `EXPLAIN ${statement.text}`, params);
      return rows.map((line) => line['QUERY PLAN']).join('\n');
    };
    for (const source of ['busy', 'quiet']) {
      for (const statement of Object.values(LINES_BY_STATUS)) {
        const lines = await plan(statement, source);
        expect(lines, lines).toContain('statement_lines_source_booked_idx');
        expect(lines, lines).not.toMatch(/Sort|Seq Scan|Hash/);
        if (source === 'quiet') continue;
        // Planned to stop at the limit: the page costs well below reading the whole source. A plan that
        // expects to read it all ties with reading it unordered and sorting, and either may be chosen.
        const [page, scan] = [...lines.matchAll(/cost=[\d.]+\.\.([\d.]+)/g)].map((cost) => Number(cost[1]));
        expect(page, lines).toBeLessThan(scan * 0.75);
      }
    }
    const made = await plan(LIST_SOURCE_IMPORTS, 'quiet');
    expect(made, made).toContain('statement_imports_source_idx');
    expect(made, made).not.toMatch(/Sort|Seq Scan on statement_imports/);
    const page = await api.request('GET', '/v1/statement-lines?source=busy&status=unmatched&limit=3', {
      key: bigFinance,
    });
    expect(
      page.body.data.map((line: { matched: boolean }) => line.matched),
      JSON.stringify(page.body),
    ).toEqual([false, false, false]);
  });
});

// Imports are opened, given their lines and completed, as an import does (triggers check each step).
const MANY_LINES = [
  `INSERT INTO statement_imports (tenant_id, id, source_id, format, actor)
   SELECT $1, gen_random_uuid(), s.id, 'csv:bank', 'test'
     FROM statement_sources s, generate_series(1, 4000) AS n
    WHERE s.tenant_id = $1 AND (s.name = 'busy' OR n <= 10)`,
  `INSERT INTO statement_lines (tenant_id, id, source_id, import_id, external_id, line_number, statement_index,
                                booked_on, amount_minor, currency, raw)
   SELECT $1, gen_random_uuid(), i.source_id, i.id, i.id || ':' || k, k, 0,
          DATE '2026-01-01' + (hashtext(i.id::text) & 255), 100 + k, 'EUR', ''
     FROM statement_imports i, generate_series(1, 5) AS k
    WHERE i.tenant_id = $1`,
  `UPDATE statement_imports
      SET file_sha256 = sha256(id::text::bytea), file_bytes = 1, lines = 5, duplicates = 0, statements = '[]',
          warnings = '[]', completed_at = now()
    WHERE tenant_id = $1`,
  `INSERT INTO matches (tenant_id, id, group_id, statement_line_id, rule)
   SELECT $1, gen_random_uuid(), gen_random_uuid(), l.id, 'reversal'
     FROM statement_lines l JOIN statement_sources s ON s.tenant_id = l.tenant_id AND s.id = l.source_id
    WHERE l.tenant_id = $1 AND s.name = 'busy' AND hashtext(l.id::text) % 10 <> 0`,
];
