import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrivateNatsServer, startPrivateNatsServer } from '../support/nats-server';
import { waitForRelay } from './support/event-audit';
import { recordFigures } from './support/fault-report';
import { type FaultTenant, setupFaultTenant } from './support/fault-tenant';
import { LedgerStack, waitForWritingTransaction } from './support/ledger-stack';
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
    expect(finalTickets).toEqual({ tickets: LINES, fingerprints: LINES, missing_in_ledger: LINES });
  });

  it('an API-started run: the retry with the same key runs afresh and completes; tickets stay the same', async () => {
    await stack.startWorker(NEVER);
    // Quiet: no relay batch is writing when the run's first write is looked for.
    expect(await waitForRelay(stack, tenant.tenantId, 30_000)).toBe(0);
    const before = await tickets();
    const runsBefore = (await runs()).length;
    const idempotencyKey = randomUUID();
    const request = stack
      .request('POST', '/v1/reconciliation/runs', { key: tenant.financeKey, idempotencyKey, body: {} })
      .then(
        (answer) => ({ answered: true as const, answer }),
        () => ({ answered: false as const }),
      );
    // The run's first write (its claim) gives its transaction an id: from then on it is under way.
    await waitForWritingTransaction(stack);
    const killDelayMs = new SeededRandom(FAULT_SEED, 'reconciliation-kill api').between(0, KILL_DELAY_MAX_MS);
    await sleep(killDelayMs);
    await stack.killApi();
    const interrupted = await request;
    // The API's run is one transaction with its Idempotency-Key: killed, it leaves no run behind.
    const afterKill = {
      runs: (await runs()).length - runsBefore,
      stuck: (await runs()).filter((run) => run.status === 'running'),
    };
    await stack.startApi();
    const retried = await stack.request('POST', '/v1/reconciliation/runs', {
      key: tenant.financeKey,
      idempotencyKey,
      body: {},
    });
    const after = await tickets();
    await recordFigures('reconciliation-kill-api', {
      headline:
        `API run killed ${killDelayMs} ms into its transaction: ${afterKill.runs} run rows left; ` +
        `retry ${retried.status} ${retried.body?.status}; tickets ${before.tickets} before, ${after.tickets} after`,
      killDelayMs,
      afterKill,
      retry: { status: retried.status, run: retried.body?.status, stats: retried.body?.stats },
      before,
      after,
    });

    expect(interrupted.answered, 'the kill interrupted the request').toBe(false);
    expect(afterKill).toEqual({ runs: 0, stuck: [] });
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    expect(retried.body).toMatchObject({ status: 'completed', stats: { opened: 0 } });
    expect(after).toEqual(before);
  });
});
