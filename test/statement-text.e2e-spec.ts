import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, type ApiResponse, startApi } from './support/api-harness';
import { type TestTenant, createAccount, createApiKey, setupTenant, sqlRows } from './support/ledger-fixtures';

// Text PostgreSQL cannot store (a NUL character) and bytes that are not UTF-8, inside an uploaded statement:
// the import answers IMPORT_INVALID with the line of the bad character, in every format, never a 500, and
// nothing of the file is stored.

const FIXTURES = resolve(__dirname, '..', 'fixtures', 'statements', 'ok');

/** Each format's fixture, and the text on one of its lines where the bad bytes go. */
const FILES = [
  { source: 'gateway', format: 'csv:gateway', file: 'gateway-balance.gateway.csv', at: 'Order 1002' },
  { source: 'bank-mt940', format: 'mt940', file: 'mt940-year-end.sta', at: 'Invoice 2024-118' },
  { source: 'bank-camt', format: 'camt053', file: 'camt053-v08-batch-reversal.xml', at: 'Invoice 2024-118' },
] as const;

const BAD_BYTES = [
  ['a NUL character', Buffer.from([0x00]), /NUL character/],
  ['bytes that are not UTF-8', Buffer.from([0xc3, 0x28]), /not valid UTF-8/],
] as const;

let api: ApiHarness;
let tenant: TestTenant;
let financeKey: string;

beforeAll(async () => {
  api = await startApi();
  tenant = await setupTenant(api, 'statement text');
  financeKey = await createApiKey(api, tenant.adminKey, ['finance']);
  await createAccount(api, tenant.adminKey, { code: 'assets:bank', currency: 'EUR', normalBalance: 'debit' });
  for (const { source, format } of FILES) {
    const created = await api.request('POST', '/v1/sources', {
      key: financeKey,
      idempotencyKey: randomUUID(),
      // UTF-8 only: without it, MT940 reads a file that is not UTF-8 as Windows-1252 (statement-charset.e2e-spec).
      body: { name: source, account: 'assets:bank', format, charset: 'utf-8' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  }
});
afterAll(async () => {
  await api?.close();
});

async function upload(content: Buffer, source: string, fileName: string): Promise<ApiResponse> {
  const form = new FormData();
  form.set('file', new Blob([content]), fileName);
  form.set('source', source);
  const response = await fetch(`${api.baseUrl}/v1/imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${financeKey}`, 'idempotency-key': randomUUID() },
    body: form,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

async function storedCounts(): Promise<{ imports: number; lines: number }> {
  const [row] = await sqlRows<{ imports: number; lines: number }>(
    api,
    `SELECT (SELECT count(*)::int FROM statement_imports WHERE tenant_id = $1) AS imports,
            (SELECT count(*)::int FROM statement_lines WHERE tenant_id = $1) AS lines`,
    [tenant.tenantId],
  );
  return row!;
}

describe('bad characters inside statement files', () => {
  for (const { source, format, file, at } of FILES) {
    for (const [what, bytes, reason] of BAD_BYTES) {
      it(`${format}: ${what} is a line error with its line number, and nothing is stored`, async () => {
        const content = await readFile(resolve(FIXTURES, file));
        const offset = content.indexOf(at) + 3;
        expect(offset).toBeGreaterThan(3);
        const line = content.subarray(0, offset).toString('utf8').split('\n').length;
        const before = await storedCounts();
        const answer = await upload(
          Buffer.concat([content.subarray(0, offset), bytes, content.subarray(offset)]),
          source,
          file,
        );
        expect(answer.status, JSON.stringify(answer.body)).toBe(422);
        expect(answer.body.error.code).toBe('IMPORT_INVALID');
        expect(answer.body.error.details.errors).toEqual([{ line, reason: expect.stringMatching(reason) }]);
        expect(await storedCounts()).toEqual(before);
      });
    }
  }

  it('the same files without the bad bytes import, so the refusals above are theirs', async () => {
    for (const { source, file } of FILES) {
      const answer = await upload(await readFile(resolve(FIXTURES, file)), source, file);
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    }
  });
});
