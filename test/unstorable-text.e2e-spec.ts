import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { type TestTenant, createAccount, createApiKey, setupTenant } from './support/ledger-fixtures';

// Text PostgreSQL cannot store (a NUL) or that is not text at all (bytes that are not UTF-8, half a
// surrogate pair), wherever it comes in: a 400 VALIDATION_FAILED naming the field, never a 500.

let api: ApiHarness;
let tenant: TestTenant;
let financeKey: string;
beforeAll(async () => {
  api = await startApi();
  tenant = await setupTenant(api, 'unstorable');
  financeKey = await createApiKey(api, tenant.adminKey, ['finance']);
  await createAccount(api, tenant.adminKey, { code: 'assets:cash', currency: 'EUR', normalBalance: 'debit' });
  await createAccount(api, tenant.adminKey, { code: 'income:sales', currency: 'EUR', normalBalance: 'credit' });
});
afterAll(async () => {
  await api?.close();
});

const legs = [
  { account: 'assets:cash', direction: 'debit', amount: '1', currency: 'EUR' },
  { account: 'income:sales', direction: 'credit', amount: '1', currency: 'EUR' },
];
const posting = (extra: string) => Buffer.from(`{"entries":${JSON.stringify(legs)},${extra}}`);
const withByte = (before: string, byte: number, after: string) =>
  Buffer.concat([Buffer.from(before), Buffer.from([byte]), Buffer.from(after)]);

interface Case {
  what: string;
  method: 'GET' | 'POST';
  path: string;
  field: string;
  body?: Buffer | FormData;
  headers?: Record<string, string>;
  key?: () => string;
}

const metadataNul = encodeURIComponent(JSON.stringify({ tier: 'a\u0000' }));
const cases: Case[] = [
  { what: 'NUL in a path parameter', method: 'GET', path: '/v1/accounts/%00', field: 'path' },
  { what: 'NUL inside a path parameter', method: 'GET', path: '/v1/accounts/cash%00x', field: 'path' },
  { what: 'NUL in a transaction id', method: 'GET', path: '/v1/transactions/%00', field: 'path' },
  { what: 'NUL in an import id', method: 'GET', path: '/v1/imports/%00/lines', field: 'path' },
  { what: 'a lone byte in a path', method: 'GET', path: '/v1/accounts/%FF', field: 'path' },
  { what: 'an encoded surrogate in a path', method: 'GET', path: '/v1/accounts/%ED%A0%80', field: 'path' },
  { what: 'a cut sequence in a path', method: 'GET', path: '/v1/accounts/%E2%82', field: 'path' },
  { what: 'NUL in a query value', method: 'GET', path: '/v1/transactions?account=%00', field: 'account' },
  {
    what: 'a lone byte in a query value',
    method: 'GET',
    path: '/v1/transactions?externalRef=%FF',
    field: 'externalRef',
  },
  { what: 'NUL in the cursor', method: 'GET', path: '/v1/accounts?cursor=a%00', field: 'cursor' },
  {
    what: 'NUL inside the metadata filter (JSON escape)',
    method: 'GET',
    path: `/v1/transactions?metadata=${metadataNul}`,
    field: 'metadata.tier',
  },
  {
    what: 'a Latin-1 byte in the Idempotency-Key',
    method: 'POST',
    path: '/v1/transactions',
    field: 'Idempotency-Key',
    headers: { 'idempotency-key': 'key-\u00ff' },
    body: posting('"description":"ok"'),
  },
  {
    what: 'NUL in a body field',
    method: 'POST',
    path: '/v1/transactions',
    field: 'description',
    body: posting('"description":"a\\u0000b"'),
  },
  {
    what: 'NUL deep in metadata',
    method: 'POST',
    path: '/v1/transactions',
    field: 'metadata.order.note',
    body: posting('"metadata":{"order":{"note":"\\u0000"}}'),
  },
  {
    what: 'a lone surrogate in a body field',
    method: 'POST',
    path: '/v1/transactions',
    field: 'externalRef',
    body: posting('"externalRef":"x\\ud800"'),
  },
  {
    what: 'a byte that is not UTF-8 in a body field',
    method: 'POST',
    path: '/v1/transactions',
    field: 'description',
    body: withByte(posting('"description":"caf').toString().slice(0, -1), 0xe9, '"}'),
  },
  {
    what: 'a byte that is not UTF-8 in nested metadata',
    method: 'POST',
    path: '/v1/accounts',
    field: 'metadata.owner',
    body: withByte('{"code":"x:y","currency":"EUR","normalBalance":"debit","metadata":{"owner":"', 0xc0, '"}}'),
    key: () => tenant.adminKey,
  },
];

function multipartWithNul(): FormData {
  const form = new FormData();
  form.set('file', new Blob(['date\n']), 's.csv');
  form.set('source', 'bank\u0000');
  return form;
}

/** A file part whose Content-Disposition is written by hand: filename* (RFC 7578, percent-encoded UTF-8). */
function multipartNamed(disposition: string): { body: string; contentType: string } {
  const boundary = `b${randomUUID()}`;
  const body = [
    `--${boundary}`,
    'Content-Disposition: form-data; name="source"',
    '',
    'bank',
    `--${boundary}`,
    `Content-Disposition: form-data; name="file"; ${disposition}`,
    'Content-Type: text/csv',
    '',
    'date',
    `--${boundary}--`,
    '',
  ].join('\r\n');
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

describe('text that cannot be stored', () => {
  it.each(cases)('$what: 400 VALIDATION_FAILED naming $field', async (test) => {
    const headers: Record<string, string> = {
      authorization: `Bearer ${test.key?.() ?? tenant.posterKey}`,
      ...(test.method === 'POST' ? { 'idempotency-key': randomUUID(), 'content-type': 'application/json' } : {}),
      ...test.headers,
    };
    const response = await fetch(`${api.baseUrl}${test.path}`, { method: test.method, headers, body: test.body });
    const body = (await response.json()) as any;
    expect(response.status, JSON.stringify(body)).toBe(400);
    expect(body.error.code).toBe('VALIDATION_FAILED');
    expect(body.error.details.fields.map((field: { path: string }) => field.path)).toContain(test.field);
  });

  it('NUL in a multipart field of an upload: 400 naming it', async () => {
    const response = await fetch(`${api.baseUrl}/v1/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${financeKey}`, 'idempotency-key': randomUUID() },
      body: multipartWithNul(),
    });
    const body = (await response.json()) as any;
    expect(response.status, JSON.stringify(body)).toBe(400);
    expect(body.error.details.fields.map((field: { path: string }) => field.path)).toContain('source');
  });

  it.each([
    { what: 'a NUL in an encoded file name', disposition: "filename*=UTF-8''s%00.csv", field: 'file' },
    { what: 'a raw NUL in the part header', disposition: 'filename="s\u0000.csv"', field: 'body' },
  ])('$what: 400 naming $field', async ({ disposition, field }) => {
    const { body: multipart, contentType } = multipartNamed(disposition);
    const response = await fetch(`${api.baseUrl}/v1/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${financeKey}`, 'idempotency-key': randomUUID(), 'content-type': contentType },
      body: multipart,
    });
    const body = (await response.json()) as any;
    expect(response.status, JSON.stringify(body)).toBe(400);
    expect(body.error.details.fields.map((entry: { path: string }) => entry.path)).toContain(field);
  });
});
