import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportStatementUseCase } from '@ledger/imports';
import { generatedGatewayExport, retainedHeap } from '../libs/imports/test/statement-files';
import { itWithStatementSamples, STATEMENT_SAMPLES_DIR } from '../libs/imports/test/statement-samples';
import { type ApiHarness, type ApiResponse, startApi } from './support/api-harness';
import { type TestTenant, createAccount, setupTenant, sqlRows } from './support/ledger-fixtures';

const FIXTURES = resolve(__dirname, '..', 'fixtures', 'statements');

let api: ApiHarness;
let tenant: TestTenant;
let financeKey: string;

beforeAll(async () => {
  api = await startApi();
  tenant = await setupTenant(api, 'imports');
  const finance = await api.request('POST', '/v1/api-keys', {
    key: tenant.adminKey,
    idempotencyKey: randomUUID(),
    body: { name: 'finance', roles: ['finance'] },
  });
  financeKey = finance.body.key;
  await createAccount(api, tenant.adminKey, { code: 'assets:bank:eur', currency: 'EUR', normalBalance: 'debit' });
  await createAccount(api, tenant.adminKey, {
    code: 'assets:gateway:clearing',
    currency: 'USD',
    normalBalance: 'debit',
  });
  for (const [name, account, format] of [
    ['bank-eur', 'assets:bank:eur', 'camt053'],
    ['bank-mt940', 'assets:bank:eur', 'mt940'],
    ['gateway', 'assets:gateway:clearing', 'csv:gateway'],
  ]) {
    const created = await api.request('POST', '/v1/sources', {
      key: financeKey,
      idempotencyKey: randomUUID(),
      body: { name, account, format },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  }
});
afterAll(async () => {
  await api?.close();
});

async function upload(
  path: string,
  fields: Record<string, string>,
  idempotencyKey = randomUUID(),
): Promise<ApiResponse> {
  const form = new FormData();
  form.set('file', new Blob([await readFile(path)]), path.split('/').at(-1));
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  const response = await fetch(`${api.baseUrl}/v1/imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${financeKey}`, 'idempotency-key': idempotencyKey },
    body: form,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

const lineCount = async () =>
  Number(
    (
      await sqlRows<{ n: string }>(api, 'SELECT count(*)::text AS n FROM statement_lines WHERE tenant_id = $1', [
        tenant.tenantId,
      ])
    )[0]!.n,
  );

describe('POST /v1/imports', () => {
  it('imports a gateway CSV export with exact amounts, and the same file again is recognised', async () => {
    const path = resolve(FIXTURES, 'ok', 'gateway-balance.gateway.csv');
    const first = await upload(path, { source: 'gateway' });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({ source: 'gateway', format: 'csv:gateway', duplicates: 0 });
    expect(first.body.lines).toBeGreaterThan(0);
    const lines = await api.request('GET', `/v1/imports/${first.body.id}/lines?limit=200`, { key: financeKey });
    expect(lines.body.data).toHaveLength(first.body.lines);
    // What was stored reads back exactly as the parser read it: amounts, gross and fee, identity.
    const expected = JSON.parse(await readFile(`${path}.expected.json`, 'utf8')) as {
      lines: Record<string, unknown>[];
    };
    expect(
      lines.body.data.map((line: Record<string, unknown>) => [
        line.lineNumber,
        line.externalId,
        line.amount,
        line.gross,
        line.fee,
        line.references,
      ]),
    ).toEqual(
      expected.lines.map((line) => [
        line.lineNumber,
        line.externalId,
        line.amountMinor,
        line.grossMinor,
        line.feeMinor,
        line.references,
      ]),
    );
    const again = await upload(path, { source: 'gateway' });
    expect(again.status).toBe(201);
    expect(again.headers.get('ledger-existing')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    // The answer to the first upload and a later read show the same import.
    expect((await api.request('GET', `/v1/imports/${first.body.id}`, { key: financeKey })).body).toEqual(first.body);
  });

  itWithStatementSamples(
    'imports the real camt.053 samples; overlapping statements do not duplicate lines',
    async () => {
      const before = await lineCount();
      const v8 = await upload(resolve(STATEMENT_SAMPLES_DIR, 'camt', 'camt053.v8.xml'), { source: 'bank-eur' });
      expect(v8.status, JSON.stringify(v8.body)).toBe(201);
      const v4 = await upload(resolve(STATEMENT_SAMPLES_DIR, 'camt', 'camt053.v4.xml'), { source: 'bank-eur' });
      expect(v4.status, JSON.stringify(v4.body)).toBe(201);
      expect(await lineCount()).toBe(before + v8.body.lines + v4.body.lines - v4.body.duplicates);
    },
  );

  itWithStatementSamples('stores a statement whose balances do not add up, with a warning', async () => {
    const imported = await upload(resolve(STATEMENT_SAMPLES_DIR, 'camt', 'camt053.v2.minimal.xml'), {
      source: 'bank-eur',
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const unbalanced = imported.body.statements.filter(
      (statement: { balanced: boolean | null }) => statement.balanced === false,
    );
    expect(unbalanced.length).toBeGreaterThan(0);
    expect(imported.body.warnings).toHaveLength(unbalanced.length);
  });

  it('refuses a file with bad lines as a whole: every bad line number, nothing stored', async () => {
    const before = await lineCount();
    const refused = await upload(resolve(FIXTURES, 'not-ok', 'mt940-bad-lines.sta'), { source: 'bank-mt940' });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('IMPORT_INVALID');
    expect(refused.body.error.details.errors.length).toBeGreaterThan(1);
    for (const error of refused.body.error.details.errors)
      expect(error).toMatchObject({ line: expect.any(Number), reason: expect.any(String) });
    expect(await lineCount()).toBe(before);
    const imports = await sqlRows<{ n: string }>(
      api,
      'SELECT count(*)::text AS n FROM statement_imports WHERE tenant_id = $1 AND format = $2',
      [tenant.tenantId, 'mt940'],
    );
    expect(imports[0]!.n).toBe('0');
  });

  it('streams a large file into storage in flat memory, every line stored once with its exact amount', async () => {
    const rows = 150_000;
    const created = await api.request('POST', '/v1/sources', {
      key: financeKey,
      idempotencyKey: randomUUID(),
      body: { name: 'gateway-large', account: 'assets:gateway:clearing', format: 'csv:gateway' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // The heap that stays after a full collection, taken as the parser asks for more of the file: early on,
    // and again near the end, after parsing, identity, batching and the database writes of every line between.
    const heapAt = new Map<number, number>();
    async function* watched(): AsyncGenerator<string> {
      let rowsGiven = 0;
      for await (const chunk of generatedGatewayExport(rows)) {
        for (const mark of [15_000, rows - 1_000])
          if (rowsGiven < mark && rowsGiven + 500 >= mark) heapAt.set(mark, retainedHeap());
        rowsGiven += 500;
        yield chunk;
      }
    }
    const result = await api.app
      .get(ImportStatementUseCase)
      .execute({ tenantId: tenant.tenantId, actor: 'test', source: 'gateway-large', input: watched() });
    expect(result.import).toMatchObject({ lines: rows, duplicates: 0 });
    const [stored] = await sqlRows<{ n: string; net: string }>(
      api,
      `SELECT count(*)::text AS n, sum(amount_minor)::text AS net FROM statement_lines
        WHERE tenant_id = $1 AND import_id = $2`,
      [tenant.tenantId, result.import.id],
    );
    // Every full hundred lines nets 4970.00 (see generatedGatewayExport).
    expect(stored).toEqual({ n: String(rows), net: String((rows / 100) * 497_000) });
    // Holding the 134,000 lines in between, as objects or as batches waiting to be written, would keep
    // well over 40 MB; a streaming import keeps next to nothing of them.
    expect(heapAt.get(rows - 1_000)! - heapAt.get(15_000)!).toBeLessThan(16 * 1024 * 1024);
  }, 180_000);

  it('answers clear errors for an unknown source, a missing file, an unknown format and a wrong role', async () => {
    expect((await upload(resolve(FIXTURES, 'ok', 'mt940-year-end.sta'), { source: 'nope' })).body.error.code).toBe(
      'NOT_FOUND',
    );
    expect(
      (await upload(resolve(FIXTURES, 'ok', 'mt940-year-end.sta'), { source: 'bank-mt940', format: 'pdf' })).body.error
        .code,
    ).toBe('VALIDATION_FAILED');
    const noFile = await api.request('POST', '/v1/imports', {
      key: financeKey,
      idempotencyKey: randomUUID(),
      body: { source: 'gateway' },
    });
    expect(noFile.status).toBe(400);
    const poster = await api.request('POST', '/v1/imports', {
      key: tenant.posterKey,
      idempotencyKey: randomUUID(),
      body: { source: 'gateway' },
    });
    expect(poster.status).toBe(403);
  });

  it('an import replayed with its Idempotency-Key answers the same; another file with it is refused', async () => {
    const key = randomUUID();
    const first = await upload(resolve(FIXTURES, 'ok', 'mt940-year-end.sta'), { source: 'bank-mt940' }, key);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const replay = await upload(resolve(FIXTURES, 'ok', 'mt940-year-end.sta'), { source: 'bank-mt940' }, key);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(first.body.id);
    const other = await upload(resolve(FIXTURES, 'ok', 'gateway-balance.gateway.csv'), { source: 'gateway' }, key);
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });
});
