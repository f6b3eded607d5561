import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OPENAPI_DOCUMENT_FILE,
  OPENAPI_TYPES_FILE,
  documentText,
  typesText,
} from '../apps/api/src/openapi/contract-files';
import { type ApiHarness, startApi } from './support/api-harness';

const ROOT = resolve(__dirname, '..');

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

function idempotencyHeader(operation: any) {
  return (operation.parameters ?? []).find(
    (parameter: any) => parameter.in === 'header' && String(parameter.name).toLowerCase() === 'idempotency-key',
  );
}

describe('OpenAPI document', () => {
  let document: any;
  beforeAll(async () => {
    const response = await api.request('GET', '/docs-json'); // public: no key
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    document = response.body;
  });

  it('is an OpenAPI 3 document with bearer auth and the implemented routes', () => {
    expect(document.openapi).toMatch(/^3\.\d+\.\d+$/);
    expect(document.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(Object.values(document.components?.securitySchemes ?? {})).toContainEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    );
    const paths = Object.keys(document.paths);
    for (const path of [
      '/v1/transactions',
      '/v1/transactions/{id}',
      '/v1/accounts',
      '/v1/accounts/{account}',
      '/v1/accounts/{account}/entries',
      '/v1/api-keys',
      '/v1/tenants',
      '/v1/events',
      '/health',
    ]) {
      expect(paths).toContain(path);
    }
    expect(document.paths['/v1/transactions'].get).toBeDefined();
  });

  it('describes the POST /v1/transactions request body: entries of string amounts, no extra fields', () => {
    const post = document.paths['/v1/transactions'].post;
    expect(post).toBeDefined();
    const schema = post.requestBody?.content?.['application/json']?.schema;
    expect(schema, JSON.stringify(post)).toBeDefined();
    expect(schema.$schema).toBeUndefined();
    expect(schema.type).toBe('object');
    expect(schema.required).toContain('entries');
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['externalRef', 'description', 'effectiveAt', 'metadata', 'entries']),
    );
    const entries = schema.properties.entries;
    expect(entries).toMatchObject({ type: 'array', minItems: 2, maxItems: 100 });
    const leg = entries.items;
    expect(leg.type).toBe('object');
    expect([...leg.required].sort()).toEqual(['account', 'amount', 'currency', 'direction']);
    expect(leg.properties.amount.type).toBe('string'); // money is never a JSON number
    expect([...leg.properties.direction.enum].sort()).toEqual(['credit', 'debit']);
  });

  it('documents the Idempotency-Key header as required on every idempotent POST', () => {
    for (const path of ['/v1/transactions', '/v1/accounts', '/v1/api-keys']) {
      const header = idempotencyHeader(document.paths[path].post);
      expect(header, path).toBeDefined();
      expect(header.required, path).toBe(true);
    }
  });

  it('describes the account creation body', () => {
    const schema = document.paths['/v1/accounts'].post.requestBody.content['application/json'].schema;
    expect([...schema.required].sort()).toEqual(['code', 'currency', 'normalBalance']);
    expect([...schema.properties.normalBalance.enum].sort()).toEqual(['credit', 'debit']);
    expect(schema.properties.allowNegative.type).toBe('boolean');
  });

  it('serves the interactive UI at /docs', async () => {
    const response = await api.request('GET', '/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/html/);
    expect(String(response.body)).toMatch(/swagger/i);
  });

  it('is OpenAPI 3.1 and exactly the committed openapi.json (else: npm run openapi, and commit)', async () => {
    expect(document.openapi).toBe('3.1.0');
    const committed = await readFile(resolve(ROOT, OPENAPI_DOCUMENT_FILE), 'utf8');
    expect(documentText(document) === committed, `${OPENAPI_DOCUMENT_FILE} differs from the served document`).toBe(
      true,
    );
  });

  it('gives the committed generated types (else: npm run openapi, and commit)', async () => {
    const committed = await readFile(resolve(ROOT, OPENAPI_TYPES_FILE), 'utf8');
    expect((await typesText(document)) === committed, `${OPENAPI_TYPES_FILE} differs from the document's`).toBe(true);
  });

  it("passes Redocly's recommended rules with no error and no warning", async () => {
    const cli = resolve(ROOT, 'node_modules/@redocly/cli/bin/cli.js');
    const args = [cli, 'lint', OPENAPI_DOCUMENT_FILE, '--format=json'];
    // It exits 1 when it finds an error; the report on stdout says which.
    const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: ROOT }).catch(
      (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
    );
    const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: unknown[] };
    expect(report.totals, JSON.stringify(report.problems).slice(0, 2000)).toMatchObject({ errors: 0, warnings: 0 });
  });
});
