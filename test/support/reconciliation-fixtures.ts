import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ExecuteQueuedRunUseCase, type QueuedRunOutcome } from '@ledger/reconciliation';
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
  body: { name: string; account: string; format?: string },
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
  format?: string,
): Promise<any> {
  const form = new FormData();
  form.set('file', new Blob([content]), fileName);
  form.set('source', source);
  if (format !== undefined) form.set('format', format);
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

/** `POST /v1/reconciliation/runs`: the 202 with the queued run (any other answer fails the test). */
export async function startRun(api: ApiHarness, key: string, idempotencyKey: string = randomUUID()): Promise<any> {
  const response = await api.request('POST', '/v1/reconciliation/runs', { key, idempotencyKey, body: {} });
  expect(response.status, JSON.stringify(response.body)).toBe(202);
  expect(response.body).toMatchObject({ status: 'queued', startedAt: null, progress: { phase: 'queued' } });
  return response.body;
}

/** Queued runs carried out one after the other at most, per call (a test queues a handful). */
const QUEUED_RUNS_PER_CALL_MAX = 100;

/**
 * What the worker's queue loop does, here in the test's process on the API's database: claims the
 * queued runs one after the other and carries each out (no worker runs beside most tests).
 */
export async function executeQueuedRuns(api: ApiHarness): Promise<QueuedRunOutcome[]> {
  const executeQueuedRun = api.app.get(ExecuteQueuedRunUseCase);
  const outcomes: QueuedRunOutcome[] = [];
  for (let count = 0; count < QUEUED_RUNS_PER_CALL_MAX; count++) {
    const outcome = await executeQueuedRun.execute();
    if (outcome.kind === 'idle') break;
    outcomes.push(outcome);
  }
  return outcomes;
}

const RUN_POLL_INTERVAL_MS = 100;
/** A bound, not a threshold: a run on a machine shared with other test files may take long. */
const RUN_WAIT_MAX_MS = 60_000;

/** Polls `GET /v1/reconciliation/runs/:id` until the run is neither queued nor running; answers it. */
export async function waitForRun(api: ApiHarness, key: string, id: string): Promise<any> {
  const deadline = Date.now() + RUN_WAIT_MAX_MS;
  for (;;) {
    const read = await api.request('GET', `/v1/reconciliation/runs/${id}`, { key });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    if (read.body.status !== 'queued' && read.body.status !== 'running') return read.body;
    if (Date.now() > deadline) throw new Error(`run ${id} still ${read.body.status}: ${JSON.stringify(read.body)}`);
    await sleep(RUN_POLL_INTERVAL_MS);
  }
}

/** A run as the API starts it: queued (202), carried out as the worker would, followed until it completed. */
export async function runReconciliation(api: ApiHarness, key: string): Promise<any> {
  const queued = await startRun(api, key);
  await executeQueuedRuns(api);
  const run = await waitForRun(api, key, queued.id);
  expect(run.status, JSON.stringify(run)).toBe('completed');
  return run;
}

export async function listTickets(api: ApiHarness, key: string, query = ''): Promise<any[]> {
  return (await api.request('GET', `/v1/discrepancies?limit=200${query}`, { key })).body.data as any[];
}
