import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { expect } from 'vitest';
import { STATEMENT_SAMPLES_DIR } from '../../libs/imports/test/statement-samples';
import type { ApiHarness } from './api-harness';
import { DAY_MS, type TestTenant, createApiKey } from './ledger-fixtures';

/** The UTC date `offset` days from today, as statements write it ("2026-11-29"). */
export function statementDay(offset: number): string {
  return new Date(Date.now() + offset * DAY_MS).toISOString().slice(0, 10);
}

export function financeKey(api: ApiHarness, tenant: TestTenant): Promise<string> {
  return createApiKey(api, tenant.adminKey, ['finance'], 'finance');
}

export async function createSource(
  api: ApiHarness,
  key: string,
  body: { name: string; account: string; format: string },
): Promise<void> {
  const created = await api.request('POST', '/v1/sources', { key, idempotencyKey: randomUUID(), body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
}

export async function routeOwner(
  api: ApiHarness,
  key: string,
  body: { priority: number; owner: string; kind?: string; source?: string; accountPrefix?: string },
): Promise<void> {
  const created = await api.request('POST', '/v1/owner-routes', { key, idempotencyKey: randomUUID(), body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
}

/** Uploads a statement file's content to a source as the console does (multipart). */
export async function uploadStatement(
  api: ApiHarness,
  key: string,
  source: string,
  fileName: string,
  content: string | Buffer,
): Promise<any> {
  const form = new FormData();
  form.set('file', new Blob([content]), fileName);
  form.set('source', source);
  const response = await fetch(`${api.baseUrl}/v1/imports`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'idempotency-key': randomUUID() },
    body: form,
  });
  const body = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body;
}

/** Uploads one of the third-party samples (STATEMENT_SAMPLES_DIR): only from tests skipped without them. */
export async function uploadSample(api: ApiHarness, key: string, source: string, samplePath: string): Promise<any> {
  return uploadStatement(
    api,
    key,
    source,
    samplePath.split('/').at(-1)!,
    await readFile(resolve(STATEMENT_SAMPLES_DIR, samplePath)),
  );
}

/** A bank CSV (the built-in csv:bank profile) from its rows. */
export function bankCsv(rows: string[]): string {
  return (
    [['date,value date,description,amount,currency,reference,counterparty'], ...rows.map((row) => [row])].join('\n') +
    '\n'
  );
}

export async function runReconciliation(api: ApiHarness, key: string): Promise<any> {
  const response = await api.request('POST', '/v1/reconciliation/runs', {
    key,
    idempotencyKey: randomUUID(),
    body: {},
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body;
}

export async function listTickets(api: ApiHarness, key: string, query = ''): Promise<any[]> {
  return (await api.request('GET', `/v1/discrepancies?limit=200${query}`, { key })).body.data as any[];
}
