import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrivateNatsServer, startPrivateNatsServer } from '../support/nats-server';
import { recordFigures } from './support/fault-report';
import { type FaultTenant, setupFaultTenant } from './support/fault-tenant';
import { LedgerStack, waitForLockWait } from './support/ledger-stack';
import { FAULT_SEED, SeededRandom } from './support/seeded-random';
import { SHARED_ADMIN_DATABASE_URL } from './support/shared-postgres';
import { bankStatementCsv, uploadStatement } from './support/statement-files';

/** Under the per-run cap on findings of one kind, so every line has its ticket. */
const LINES = 800;
const LEASE_SECONDS = 3;
/** The worker reconciles every 2 s while the test wants a scheduled run; never otherwise. */
const FREQUENT = { RECONCILE_CRON: '*/2 * * * * *' };
const NEVER = { RECONCILE_CRON: '0 0 1 1 *' };
const RUN_START_TIMEOUT_MS = 60_000;
/** A run of these lines takes seconds: a kill this soon after it started lands inside it. */
const KILL_DELAY_MAX_MS = 300;
const RECOVERY_TIMEOUT_MS = 60_000;

/** What every completed run leaves: one ticket per line, never two. */
const EVERY_LINE_ONCE = { tickets: LINES, fingerprints: LINES, missing_in_ledger: LINES };

const RUNS = `SELECT id::text, trigger, status, error FROM reconciliation_runs
               WHERE tenant_id = $1 ORDER BY started_at`;
const TICKETS = `SELECT count(*)::int AS tickets, count(DISTINCT fingerprint)::int AS fingerprints,
                        count(*) FILTER (WHERE kind = 'missing_in_ledger')::int AS missing_in_ledger
                   FROM discrepancies WHERE tenant_id = $1`;

let nats: PrivateNatsServer;
let stack: LedgerStack;
let tenant: FaultTenant;

beforeAll(async () => {
  nats = await startPrivateNatsServer();
  stack = await LedgerStack.create({
    adminDatabaseUrl: SHARED_ADMIN_DATABASE_URL,
    natsUrl: nats.url,
    natsStream: 'FAULTS_RECONCILE',
    settings: { RECONCILE_RUN_LEASE_SECONDS: String(LEASE_SECONDS) },
  });
  await stack.startApi();
  tenant = await setupFaultTenant(stack, 0);
  await stack.request('POST', '/v1/accounts', {
    key: tenant.adminKey,
    idempotencyKey: randomUUID(),
    body: { code: 'assets:bank', currency: 'USD', normalBalance: 'debit', allowNegative: true },
  });
  const source = await stack.request('POST', '/v1/sources', {
    key: tenant.financeKey,
    idempotencyKey: randomUUID(),
    body: { name: 'bank', account: 'assets:bank', format: 'csv:bank' },
  });
  if (source.status !== 201) throw new Error(`source: ${source.status} ${JSON.stringify(source.body)}`);
  // Lines the ledger knows nothing of: each run finds every one missing_in_ledger, one ticket each.
  const imported = await uploadStatement(
    stack.baseUrl,
    tenant.financeKey,
    randomUUID(),
    'bank',
    'statement.csv',
    bankStatementCsv(LINES, 'REC'),
  );
  if (imported.status !== 201) throw new Error(`import: ${imported.status} ${JSON.stringify(imported.body)}`);
});

afterAll(async () => {
  await stack?.dispose();
  await nats?.dispose();
});

async function tickets(): Promise<{ tickets: number; fingerprints: number; missing_in_ledger: number }> {
  return (
    await stack.sql<{ tickets: number; fingerprints: number; missing_in_ledger: number }>(TICKETS, [tenant.tenantId])
  )[0]!;
}

async function runs(): Promise<{ id: string; trigger: string; status: string; error: string | null }[]> {
  return stack.sql(RUNS, [tenant.tenantId]);
}

/** Waits until `check` holds (bounded); answers whether it did. */
async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(200);
  }
  return check();
}

describe('kill -9 during a reconciliation run', () => {
  it("the worker's run: its lease runs out, the next scheduled run completes, and no ticket is doubled", async () => {
    const random = new SeededRandom(FAULT_SEED, 'reconciliation-kill worker');
    await stack.startWorker(FREQUENT);
    const started = await eventually(
      async () => (await runs()).some((run) => run.status === 'running'),
      RUN_START_TIMEOUT_MS,
    );
    const killDelayMs = random.between(0, KILL_DELAY_MAX_MS);
    await sleep(killDelayMs);
    await stack.killWorker();
    const killedRun = (await runs()).find((run) => run.status === 'running');
    const afterKill = { runs: await runs(), tickets: await tickets() };
    await stack.startWorker(FREQUENT);
    const recovered = await eventually(
      async () => (await runs()).some((run) => run.trigger === 'schedule' && run.status === 'completed'),
      RECOVERY_TIMEOUT_MS,
    );
    await stack.worker!.stop();
    const finalRuns = await runs();
    const finalTickets = await tickets();
    await recordFigures('reconciliation-kill-worker', {
      headline:
        `run killed ${killDelayMs} ms after it was seen running; ` +
        `then: ${finalRuns.map((run) => `${run.trigger} ${run.status}`).join(', ')}; ` +
        `tickets ${finalTickets.tickets} for ${LINES} lines`,
      leaseSeconds: LEASE_SECONDS,
      killDelayMs,
      afterKill,
      finalRuns,
      finalTickets,
    });

    expect(started, 'a scheduled run started').toBe(true);
    expect(killedRun, 'the run was still running when its worker was killed').toMatchObject({
      trigger: 'schedule',
      status: 'running',
    });
    expect(recovered, 'a scheduled run completed after the restart').toBe(true);
    expect(
      finalRuns.find((run) => run.id === killedRun!.id),
      'the dead run was given up',
    ).toMatchObject({ status: 'failed', error: expect.stringMatching(/^abandoned/) });
    expect(finalRuns.filter((run) => run.status === 'running')).toEqual([]);
    expect(finalTickets).toEqual(EVERY_LINE_ONCE);
  });

  it('an API start killed before its 202 stores nothing; the same key then queues a run that completes', async () => {
    const before = await tickets();
    const runsBefore = (await runs()).length;
    const idempotencyKey = randomUUID();
    // The start is one short transaction: held at its first write to the runs, the kill lands inside it.
    const blocker = new pg.Client({ connectionString: stack.databaseUrl });
    await blocker.connect();
    let interrupted: { answered: boolean };
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE reconciliation_runs IN SHARE MODE');
      const request = startRun(idempotencyKey).then(
        (answer) => ({ answered: true as const, answer }),
        () => ({ answered: false as const }),
      );
      await waitForLockWait(stack, 'reconciliation_runs');
      await stack.killApi();
      interrupted = await request;
    } finally {
      await blocker.query('ROLLBACK').catch(() => undefined);
      await blocker.end();
    }
    const afterKill = {
      runs: (await runs()).length - runsBefore,
      keys: await storedKeys(idempotencyKey),
    };
    await stack.startApi();
    const retried = await startRun(idempotencyKey);
    await stack.startWorker(NEVER);
    const finished = retried.status === 202 ? await finishedRun(retried.body.id) : undefined;
    await stack.worker!.stop();
    const after = await tickets();
    await recordFigures('reconciliation-kill-api', {
      headline:
        `API killed inside its start: ${afterKill.runs} run rows and ${afterKill.keys} keys left; ` +
        `retry ${retried.status} ${retried.body?.status}, then ${finished?.status}; ` +
        `tickets ${before.tickets} before, ${after.tickets} after`,
      afterKill,
      retry: { status: retried.status, run: retried.body?.status },
      finished: { status: finished?.status, stats: finished?.stats, error: finished?.error },
      before,
      after,
    });

    expect(interrupted.answered, 'the kill interrupted the request').toBe(false);
    expect(afterKill).toEqual({ runs: 0, keys: 0 });
    expect(retried.status, JSON.stringify(retried.body)).toBe(202);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(retried.body).toMatchObject({ status: 'queued' });
    expect(finished).toMatchObject({ status: 'completed' });
    expect(after).toEqual(EVERY_LINE_ONCE);
  });

  it('a queued run whose worker is killed while it runs is given up after its lease; the next completes', async () => {
    const random = new SeededRandom(FAULT_SEED, 'reconciliation-kill queued');
    const before = await tickets();
    const firstKey = randomUUID();
    const queued = await startRun(firstKey);
    if (queued.status !== 202) throw new Error(`start: ${queued.status} ${JSON.stringify(queued.body)}`);
    const runId: string = queued.body.id;
    await stack.startWorker(NEVER);
    const claimed = await eventually(async () => (await run(runId))?.status === 'running', RUN_START_TIMEOUT_MS);
    const killDelayMs = random.between(0, KILL_DELAY_MAX_MS);
    await sleep(killDelayMs);
    await stack.killWorker();
    const killedRun = await run(runId);
    await stack.startWorker(NEVER);
    // The restarted worker gives up what went silent for longer than the lease, before it claims anything.
    const givenUp = await eventually(async () => (await run(runId))?.status === 'failed', RECOVERY_TIMEOUT_MS);
    const replayed = await startRun(firstKey);
    const next = await startRun(randomUUID());
    const finished = next.status === 202 ? await finishedRun(next.body.id) : undefined;
    await stack.worker!.stop();
    const finalRuns = await runs();
    const after = await tickets();
    await recordFigures('reconciliation-kill-queued', {
      headline:
        `queued run killed ${killDelayMs} ms after a worker claimed it: ${(await run(runId))?.error}; ` +
        `next start ${next.status}, then ${finished?.status}; tickets ${before.tickets} before, ${after.tickets} after`,
      leaseSeconds: LEASE_SECONDS,
      killDelayMs,
      killedRun,
      finalRuns,
      before,
      after,
    });

    expect(claimed, 'a worker claimed the queued run').toBe(true);
    expect(killedRun, 'the run was still running when its worker was killed').toMatchObject({
      trigger: 'api',
      status: 'running',
    });
    expect(givenUp, 'the dead run was given up').toBe(true);
    expect(await run(runId)).toMatchObject({ status: 'failed', error: expect.stringMatching(/^abandoned/) });
    // Its key keeps its answer: the 202 of the run as it was queued.
    expect(replayed.status).toBe(202);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(queued.body);
    expect(next.status, JSON.stringify(next.body)).toBe(202);
    expect(finished).toMatchObject({ status: 'completed' });
    expect(finalRuns.filter((row) => row.status === 'running' || row.status === 'queued')).toEqual([]);
    expect(after).toEqual(EVERY_LINE_ONCE);
  });
});

function startRun(idempotencyKey: string) {
  return stack.request('POST', '/v1/reconciliation/runs', { key: tenant.financeKey, idempotencyKey, body: {} });
}

async function run(id: string): Promise<{ id: string; trigger: string; status: string; error: string | null }> {
  return (await runs()).find((row) => row.id === id)!;
}

/** The run once it is neither queued nor running (bounded), as GET shows it. */
async function finishedRun(id: string): Promise<any> {
  await eventually(
    async () => !['queued', 'running'].includes((await run(id))?.status ?? 'queued'),
    RECOVERY_TIMEOUT_MS,
  );
  return (await stack.request('GET', `/v1/reconciliation/runs/${id}`, { key: tenant.financeKey })).body;
}

async function storedKeys(key: string): Promise<number> {
  const rows = await stack.sql<{ n: number }>(
    'SELECT count(*)::int AS n FROM idempotency_keys WHERE tenant_id = $1 AND key = $2',
    [tenant.tenantId, key],
  );
  return rows[0]!.n;
}
