import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { INestApplicationContext } from '@nestjs/common';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { type TestTenant, createAccount, createApiKey, seededTenant, sqlRows } from './support/ledger-fixtures';
import {
  bankCsv,
  createSource,
  executeQueuedRuns,
  financeKey,
  startRun,
  statementDay,
  uploadStatement,
  waitForRun,
} from './support/reconciliation-fixtures';
import { startWorker } from './support/worker-harness';

// Runs started through the API are queued and answered at once (202); a worker carries them out.

/** The worker's schedule never fires during the test: only the queue of API-started runs moves. */
const NEVER = { RECONCILE_CRON: '0 0 1 1 *' };

let api: ApiHarness;
let worker: INestApplicationContext | undefined;
beforeAll(async () => {
  api = await startApi();
});
afterEach(async () => {
  await worker?.close();
  worker = undefined;
});
afterAll(async () => {
  await worker?.close();
  await api?.close();
});

interface Team {
  tenant: TestTenant;
  finance: string;
}

/** A tenant with a bank source and one deposit the ledger never heard of: its run opens one ticket. */
async function teamWithADeposit(name: string): Promise<Team> {
  const tenant = await seededTenant(api, name);
  await createAccount(api, tenant.adminKey, {
    code: 'assets:bank',
    currency: 'USD',
    normalBalance: 'debit',
    allowNegative: true,
  });
  const finance = await financeKey(api, tenant);
  await createSource(api, finance, { name: 'bank', account: 'assets:bank', format: 'csv:bank' });
  const day = statementDay(-1);
  await uploadStatement(api, finance, 'bank', 'statement.csv', bankCsv([`${day},${day},deposit,12.00,USD,R1,payer`]));
  return { tenant, finance };
}

const post = (key: string, idempotencyKey: string) =>
  api.request('POST', '/v1/reconciliation/runs', { key, idempotencyKey, body: {} });

describe('reconciliation runs in the background', () => {
  it('answers 202 with the run queued; the worker carries it out and GET shows it completed', async () => {
    const { finance } = await teamWithADeposit('queued then completed');
    const queued = await startRun(api, finance);
    expect(queued).toMatchObject({
      trigger: 'api',
      actor: expect.stringMatching(/^api-key:/),
      finishedAt: null,
      durationMs: null,
      progress: { phase: 'queued', sourcesDone: 0, sourcesTotal: null, linesMatched: 0 },
      stats: {},
      error: null,
    });
    worker = await startWorker(api, NEVER);
    const done = await waitForRun(api, finance, queued.id);
    expect(done).toMatchObject({
      id: queued.id,
      status: 'completed',
      queuedAt: queued.queuedAt,
      startedAt: expect.any(String),
      progress: { phase: 'finished', sourcesDone: 1, sourcesTotal: 1, linesMatched: 0 },
      stats: { findings: 1, opened: 1 },
    });
    expect(Date.parse(done.startedAt)).toBeGreaterThanOrEqual(Date.parse(done.queuedAt));
    const listed = (await api.request('GET', '/v1/reconciliation/runs?limit=5', { key: finance })).body.data;
    expect(listed.map((run: { id: string }) => run.id)).toEqual([queued.id]);
  });

  it("GET shows a running run's phase and counts", async () => {
    const { finance } = await teamWithADeposit('progress');
    // Holding the tickets' table stalls the run at its last phase, once its lines are matched.
    const blocker = new pg.Client({ connectionString: api.db.url });
    await blocker.connect();
    let running: any;
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE discrepancies IN ACCESS EXCLUSIVE MODE');
      const queued = await startRun(api, finance);
      worker = await startWorker(api, NEVER);
      running = await waitUntil(finance, queued.id, (run) => run.progress.phase === 'tickets');
    } finally {
      await blocker.query('COMMIT');
      await blocker.end();
    }
    expect(running).toMatchObject({
      status: 'running',
      startedAt: expect.any(String),
      finishedAt: null,
      progress: { phase: 'tickets', sourcesDone: 1, sourcesTotal: 1, linesMatched: 0 },
    });
    expect((await waitForRun(api, finance, running.id)).status).toBe('completed');
  });

  it('a start while a run is queued or running gets 409 with its id, kept under no key', async () => {
    const { tenant, finance } = await teamWithADeposit('one at a time');
    const first = randomUUID();
    const refusedKey = randomUUID();
    const queued = await startRun(api, finance, first);
    const refused = await post(finance, refusedKey);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'RECONCILIATION_IN_PROGRESS', details: { runId: queued.id } });
    expect(await storedKeys(tenant, [first, refusedKey])).toEqual([first]);

    // Running (a worker took it): refused the same way, and still not stored.
    await sqlRows(api, `UPDATE reconciliation_runs SET status = 'running', started_at = now() WHERE id = $1`, [
      queued.id,
    ]);
    const again = await post(finance, refusedKey);
    expect(again.status).toBe(409);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.body.error.details).toEqual({ runId: queued.id });
    await sqlRows(api, `UPDATE reconciliation_runs SET status = 'queued', started_at = NULL WHERE id = $1`, [
      queued.id,
    ]);
    await executeQueuedRuns(api);
    expect(await waitForRun(api, finance, queued.id)).toMatchObject({ status: 'completed' });

    // The first key replays its 202 (the run as queued); the refused one now starts a run of its own.
    const replayed = await post(finance, first);
    expect(replayed.status).toBe(202);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(queued);
    const retried = await post(finance, refusedKey);
    expect(retried.status, JSON.stringify(retried.body)).toBe(202);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(retried.body).toMatchObject({ status: 'queued' });
    expect(retried.body.id).not.toBe(queued.id);
    await executeQueuedRuns(api);
    expect(await waitForRun(api, finance, retried.body.id)).toMatchObject({
      status: 'completed',
      stats: { findings: 1, opened: 0 },
    });
  });

  it("one tenant's failing run does not stop another tenant's queued run", async () => {
    const failing = await teamWithADeposit('failing first');
    const healthy = await teamWithADeposit('healthy second');
    // The database refuses every new ticket of the first tenant: its run fails when it opens one.
    await sqlRows(
      api,
      `ALTER TABLE discrepancies ADD CONSTRAINT refuses_failing_tenant
       CHECK (tenant_id <> '${failing.tenant.tenantId}') NOT VALID`,
    );
    try {
      // Queued first, so taken first.
      const doomed = await startRun(api, failing.finance);
      const fine = await startRun(api, healthy.finance);
      worker = await startWorker(api, NEVER);
      const failed = await waitForRun(api, failing.finance, doomed.id);
      expect(failed).toMatchObject({ status: 'failed', progress: { phase: 'tickets', sourcesDone: 1 } });
      expect(failed.error).toContain('refuses_failing_tenant');
      expect(await waitForRun(api, healthy.finance, fine.id)).toMatchObject({
        status: 'completed',
        stats: { opened: 1 },
      });
      // The failed run holds nothing: the tenant starts again (and fails again, on its own).
      const next = await startRun(api, failing.finance);
      expect((await waitForRun(api, failing.finance, next.id)).status).toBe('failed');
    } finally {
      await sqlRows(api, 'ALTER TABLE discrepancies DROP CONSTRAINT refuses_failing_tenant');
    }
  });

  it("finance starts runs, readers follow them; another tenant's run is not found and not in the way", async () => {
    const mine = await teamWithADeposit('roles and isolation');
    const other = await teamWithADeposit('the other tenant');
    const auditor = await createApiKey(api, mine.tenant.adminKey, ['auditor']);
    for (const key of [auditor, mine.tenant.adminKey, mine.tenant.posterKey]) {
      const refused = await post(key, randomUUID());
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('FORBIDDEN');
    }
    const queued = await startRun(api, mine.finance);
    for (const key of [auditor, mine.tenant.adminKey]) {
      const read = await api.request('GET', `/v1/reconciliation/runs/${queued.id}`, { key });
      expect(read.status).toBe(200);
      expect(read.body.status).toBe('queued');
    }
    expect(
      (await api.request('GET', `/v1/reconciliation/runs/${queued.id}`, { key: mine.tenant.posterKey })).status,
    ).toBe(403);
    const elsewhere = await api.request('GET', `/v1/reconciliation/runs/${queued.id}`, { key: other.finance });
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.error.code).toBe('NOT_FOUND');
    // One run at a time is per tenant: the other tenant's start is not refused by this one's queued run.
    const theirs = await startRun(api, other.finance);
    const theirList = (await api.request('GET', '/v1/reconciliation/runs', { key: other.finance })).body.data;
    expect(theirList.map((run: { id: string }) => run.id)).toEqual([theirs.id]);
    await executeQueuedRuns(api);
    expect((await waitForRun(api, mine.finance, queued.id)).status).toBe('completed');
    expect((await waitForRun(api, other.finance, theirs.id)).status).toBe('completed');
  });
});

/** Reads of a run waited on: a bound so that a wait that cannot end fails instead of hanging. */
const RUN_READS_MAX = 1_200;

/** Reads the run until `holds`; a run that ended first fails the wait. */
async function waitUntil(key: string, id: string, holds: (run: any) => boolean): Promise<any> {
  for (let read = 0; read < RUN_READS_MAX; read++) {
    const run = (await api.request('GET', `/v1/reconciliation/runs/${id}`, { key })).body;
    if (holds(run)) return run;
    if (run.status !== 'queued' && run.status !== 'running') throw new Error(`run ended: ${JSON.stringify(run)}`);
    await sleep(50);
  }
  throw new Error(`run ${id}: not as waited for after ${RUN_READS_MAX} reads`);
}

async function storedKeys(tenant: TestTenant, keys: string[]): Promise<string[]> {
  const rows = await sqlRows<{ key: string }>(
    api,
    'SELECT key FROM idempotency_keys WHERE tenant_id = $1 AND key = ANY($2::text[]) ORDER BY key',
    [tenant.tenantId, keys],
  );
  return rows.map((row) => row.key).sort((a, b) => keys.indexOf(a) - keys.indexOf(b));
}
