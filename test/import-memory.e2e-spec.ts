import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '@ledger/db';
import { XML_START_TAG_CHARS_MAX } from '@ledger/imports';
import { BUILT, BuiltProcess, READY_LINE } from './support/built-process';
import { freePort } from './support/free-port';
import { type Answer, requestJson } from './support/http-json';

// A crafted camt.053 upload must not take the API down for every tenant. The built API runs with a small
// old generation (API_HEAP_MB): a parser that kept what these files make it keep would die of it. Each file
// must be refused with the line of the offending element, and the same process must answer afterwards.

const API_HEAP_MB = 160;
const OPERATOR_TOKEN = `operator-${randomUUID()}`;

let database: TestDatabase;
let api: BuiltProcess;
let baseUrl: string;
let financeKey: string;

function call(method: string, path: string, options: { key?: string; body?: unknown } = {}): Promise<Answer> {
  return requestJson(baseUrl, method, path, { ...options, idempotencyKey: randomUUID() });
}

const HEAD = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt><Id>S1</Id>
<Acct><Id><IBAN>DE89370400440532013000</IBAN></Id></Acct>
<Ntry><Amt Ccy="EUR">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2024-01-01</Dt></BookgDt>
`;
const TAIL = '</Ntry></Stmt></BkToCstmrStmt></Document>\n';
/** The line of the first element after HEAD. */
const FIRST_ELEMENT_LINE = 5;

/** One entry of `count` elements made by `element(k)`, each on its own line, as one file. */
function camtFile(count: number, element: (index: number) => string): Blob {
  const parts: string[] = [HEAD];
  for (let index = 0; index < count; index += 1) parts.push(`${element(index)}\n`);
  parts.push(TAIL);
  return new Blob(parts);
}

/**
 * Just under the token limit of empty attributes (a1="" a2="" ...): about 100,000 of them. Kept as objects,
 * one such element took about 7 MB of heap, and an entry could hold 5,000 of them.
 */
function attributeBomb(index: number): string {
  const attributes: string[] = [];
  let chars = 0;
  for (let attribute = 0; chars < 1_000_000; attribute += 1) {
    const text = ` a${attribute.toString(36)}=""`;
    attributes.push(text);
    chars += text.length;
  }
  return `<AddtlNtryInf${attributes.join('')}>${index}</AddtlNtryInf>`;
}

/** Within every per-element limit (8 attributes, 1,000 characters of them, 4,000 of text), many times. */
function fullElement(index: number): string {
  const value = (name: string) => `${name}${index}`.padEnd(120, 'v');
  const attributes = [0, 1, 2, 3, 4, 5, 6, 7].map((attribute) => ` a${attribute}="${value(String(attribute))}"`);
  return `<AddtlNtryInf${attributes.join('')}>${value('t').repeat(33)}</AddtlNtryInf>`;
}

async function upload(file: Blob): Promise<Answer> {
  const form = new FormData();
  form.set('file', file, 'crafted.xml');
  form.set('source', 'bank');
  const response = await fetch(`${baseUrl}/v1/imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${financeKey}`, 'idempotency-key': randomUUID() },
    body: form,
  });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

beforeAll(async () => {
  database = await createTestDatabase(2);
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  api = BuiltProcess.spawn('api', BUILT.api, {
    nodeArgs: [`--max-old-space-size=${API_HEAP_MB}`],
    env: {
      DATABASE_URL: database.url,
      PORT: String(port),
      LEDGER_ADMIN_TOKEN: OPERATOR_TOKEN,
      NATS_URL: `nats://127.0.0.1:${await freePort()}`,
      LEDGER_DEMO_DATA: 'false',
      RATE_LIMIT_PER_SECOND: '0',
    },
  });
  await api.waitUntilReady(READY_LINE.api);
  const tenant = await call('POST', '/v1/tenants', { key: OPERATOR_TOKEN, body: { name: 'memory' } });
  expect(tenant.status, JSON.stringify(tenant.body)).toBe(201);
  const adminKey: string = tenant.body.apiKey;
  const finance = await call('POST', '/v1/api-keys', { key: adminKey, body: { name: 'f', roles: ['finance'] } });
  financeKey = finance.body.key;
  const account = { code: 'assets:bank', currency: 'EUR', normalBalance: 'debit' };
  expect((await call('POST', '/v1/accounts', { key: adminKey, body: account })).status).toBe(201);
  const source = { name: 'bank', account: 'assets:bank', format: 'camt053' };
  expect((await call('POST', '/v1/sources', { key: financeKey, body: source })).status).toBe(201);
});

afterAll(async () => {
  await api?.stop();
  await database?.drop();
});

describe(`camt.053 uploads to an API with a ${API_HEAP_MB} MB heap`, () => {
  it('refuses an element with a flood of attributes at its line, and keeps serving', async () => {
    // About 48 MB: kept as it was before the limits, several times the whole heap.
    const answer = await upload(camtFile(48, attributeBomb)).catch((error: unknown) => {
      throw new Error(`no answer (${String(error)}):\n${api.tail()}`);
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(422);
    expect(answer.body.error.code).toBe('IMPORT_INVALID');
    expect(answer.body.error.details.errors).toEqual([
      { line: FIRST_ELEMENT_LINE, reason: `a start tag is longer than ${XML_START_TAG_CHARS_MAX} characters` },
    ]);
    expect((await call('GET', '/v1/sources', { key: financeKey })).status).toBe(200);
  });

  it('refuses an entry that holds more than its character budget, at the element past it', async () => {
    // 3,600 elements of about 5,000 characters each: every one within its own limits, 18 M characters in all.
    const answer = await upload(camtFile(3_600, fullElement));
    expect(answer.status, JSON.stringify(answer.body)).toBe(422);
    const [error] = answer.body.error.details.errors;
    expect(answer.body.error.details.errors).toHaveLength(1);
    expect(error.reason).toBe('entry (Ntry) holds more than 16777216 characters of text and attributes');
    // The first element that no longer fits, on its own line after the elements that did.
    const perElement = fullElement(1000).length;
    expect(error.line).toBeGreaterThan(FIRST_ELEMENT_LINE + Math.floor(16_000_000 / (perElement + 120)));
    expect(error.line).toBeLessThan(FIRST_ELEMENT_LINE + 3_600);
    expect(api.running).toBe(true);
    expect((await call('GET', '/v1/sources', { key: financeKey })).status).toBe(200);
  });
});
