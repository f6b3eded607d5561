import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, type ApiResponse, startApi } from './support/api-harness';
import { type TestTenant, createAccount, seededTenant, sqlRows } from './support/ledger-fixtures';
import {
  bankCsv,
  createSource,
  financeKey,
  runReconciliation,
  statementDay,
  uploadStatement,
} from './support/reconciliation-fixtures';

let api: ApiHarness;
let tenant: TestTenant;
let key: string;
let lines = 0;

beforeAll(async () => {
  api = await startApi();
  tenant = await seededTenant(api, 'ticket race');
  await createAccount(api, tenant.adminKey, {
    code: 'assets:bank',
    currency: 'USD',
    normalBalance: 'debit',
    allowNegative: true,
  });
  key = await financeKey(api, tenant);
  await createSource(api, key, { name: 'bank', account: 'assets:bank', format: 'csv:bank' });
});
afterAll(async () => {
  await api?.close();
});

/** A deposit the ledger never heard of (a missing_in_ledger finding on the next run); answers its line id. */
async function newStatementLine(): Promise<string> {
  lines++;
  const day = statementDay(-1);
  const upload = await uploadStatement(
    api,
    key,
    'bank',
    `statement-${lines}.csv`,
    bankCsv([`${day},${day},deposit ${lines},${lines}.25,USD,REF-${lines},payer ${lines}`]),
  );
  const [line] = await sqlRows<{ id: string }>(
    api,
    'SELECT id FROM statement_lines WHERE tenant_id = $1 AND import_id = $2',
    [tenant.tenantId, upload.id],
  );
  return line!.id;
}

async function ticketOf(lineId: string): Promise<any> {
  const [row] = await sqlRows<{ id: string }>(
    api,
    'SELECT id FROM discrepancies WHERE tenant_id = $1 AND fingerprint = $2',
    [tenant.tenantId, `missing_in_ledger:${lineId}`],
  );
  return (await api.request('GET', `/v1/discrepancies/${row!.id}`, { key })).body;
}

/** Backends of this test's database waiting for a lock, with the ones they wait for. */
async function waiters(): Promise<{ pid: number; blockers: number[] }[]> {
  return sqlRows(
    api,
    `SELECT pid, pg_blocking_pids(pid) AS blockers FROM pg_stat_activity
      WHERE datname = current_database() AND cardinality(pg_blocking_pids(pid)) > 0`,
  );
}

/** Polls a condition (generously: a loaded machine takes its time to reach the sync). */
async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 6_000; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`gave up waiting: ${what}`);
}

/**
 * A run held inside its ticket sync, deterministically, by a real lock: another connection inserts (and
 * keeps uncommitted) a ticket with the fingerprint the run is about to open, so the run's insert waits on
 * the unique index after it has read (or locked) the tickets it syncs. The person's change is made while
 * the run waits; then the other connection rolls back and the run goes on.
 */
async function raceAgainstRun(change: (ticketId: string) => Promise<ApiResponse>, ticketId: string) {
  const blocking = await newStatementLine();
  const holder = new pg.Client({ connectionString: api.db.url });
  await holder.connect();
  try {
    const [{ pid: holderPid }] = (await holder.query('SELECT pg_backend_pid() AS pid')).rows;
    await holder.query('BEGIN');
    await holder.query(
      `INSERT INTO discrepancies (tenant_id, id, fingerprint, kind, severity, status, owner, summary, due_at)
       VALUES ($1, $2, $3, 'missing_in_ledger', 'high', 'open', 'nobody', 'held', now())`,
      [tenant.tenantId, randomUUID(), `missing_in_ledger:${blocking}`],
    );
    const run = runReconciliation(api, key);
    await until(
      async () => (await waiters()).some((waiter) => waiter.blockers.includes(holderPid)),
      'the run waiting on the held ticket',
    );
    let settled = false;
    const changed = change(ticketId).finally(() => {
      settled = true;
    });
    // The change either commits at once, or waits for a lock the run holds: either way it is in.
    await until(
      async () => settled || (await waiters()).some((waiter) => !waiter.blockers.includes(holderPid)),
      'the change committed or waiting for the run',
    );
    await holder.query('ROLLBACK');
    const [answer] = await Promise.all([changed, run]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  } finally {
    await holder.end();
  }
}

// Each round is two runs and a held lock: minutes on a loaded machine, so a generous timeout per test.
const ROUNDS_TIMEOUT_MS = 300_000;

describe('a run never overwrites what a person changed while it ran', () => {
  it(
    'keeps an owner assigned during a run, every time',
    async () => {
      for (let round = 0; round < 4; round++) {
        const line = await newStatementLine();
        await runReconciliation(api, key);
        const ticket = await ticketOf(line);
        expect(ticket.status).toBe('open');
        const owner = `alice-${round}`;
        await raceAgainstRun(
          (id) => api.request('PATCH', `/v1/discrepancies/${id}`, { key, body: { owner } }),
          ticket.id,
        );
        const after = await ticketOf(line);
        expect(after.owner).toBe(owner);
        expect(after.history.map((entry: any) => entry.action)).toContain('assigned');
      }
    },
    ROUNDS_TIMEOUT_MS,
  );

  it(
    'keeps a ticket ignored during a run, every time',
    async () => {
      for (let round = 0; round < 4; round++) {
        const line = await newStatementLine();
        await runReconciliation(api, key);
        const ticket = await ticketOf(line);
        await raceAgainstRun(
          (id) =>
            api.request('PATCH', `/v1/discrepancies/${id}`, {
              key,
              body: { status: 'ignored', note: 'a test deposit, reversed by the bank' },
            }),
          ticket.id,
        );
        const after = await ticketOf(line);
        expect(after.status).toBe('ignored');
        expect(after.resolvedAt).not.toBeNull();
      }
    },
    ROUNDS_TIMEOUT_MS,
  );
});

describe('If-Match on a ticket change', () => {
  it('changes the version it names, and refuses a stale one with 412 STALE_VERSION', async () => {
    const line = await newStatementLine();
    await runReconciliation(api, key);
    const ticket = await ticketOf(line);
    expect(ticket.version).toBe(1);

    const assigned = await api.request('PATCH', `/v1/discrepancies/${ticket.id}`, {
      key,
      headers: { 'if-match': '1' },
      body: { owner: 'bob' },
    });
    expect(assigned.status, JSON.stringify(assigned.body)).toBe(200);
    expect(assigned.body.version).toBe(2);

    const stale = await api.request('PATCH', `/v1/discrepancies/${ticket.id}`, {
      key,
      headers: { 'if-match': '1' },
      body: { owner: 'carol' },
    });
    expect(stale.status).toBe(412);
    expect(stale.body.error).toMatchObject({ code: 'STALE_VERSION', details: { version: 2 } });
    expect((await ticketOf(line)).owner).toBe('bob');

    // As an entity tag too.
    const quoted = await api.request('PATCH', `/v1/discrepancies/${ticket.id}`, {
      key,
      headers: { 'if-match': '"2"' },
      body: { status: 'acknowledged' },
    });
    expect(quoted.status, JSON.stringify(quoted.body)).toBe(200);
    expect(quoted.body.version).toBe(3);
  });

  it("moves with a run's change, not with a run that only saw the ticket again", async () => {
    const line = await newStatementLine();
    await runReconciliation(api, key);
    const ticket = await ticketOf(line);
    await runReconciliation(api, key);
    expect((await ticketOf(line)).version).toBe(ticket.version);

    // The line is matched by hand elsewhere: the next run resolves the ticket, a version on.
    await sqlRows(api, 'UPDATE discrepancies SET fingerprint = fingerprint || $3 WHERE tenant_id = $1 AND id = $2', [
      tenant.tenantId,
      ticket.id,
      ':renamed',
    ]);
    await runReconciliation(api, key);
    const [row] = await sqlRows<{ status: string; version: number }>(
      api,
      'SELECT status, version FROM discrepancies WHERE tenant_id = $1 AND id = $2',
      [tenant.tenantId, ticket.id],
    );
    expect(row).toEqual({ status: 'resolved', version: ticket.version + 1 });
    const stale = await api.request('PATCH', `/v1/discrepancies/${ticket.id}`, {
      key,
      headers: { 'if-match': String(ticket.version) },
      body: { note: 'looked at it' },
    });
    expect(stale.status).toBe(412);
  });

  it('refuses an If-Match that is not a version with 400 naming it', async () => {
    const line = await newStatementLine();
    await runReconciliation(api, key);
    const ticket = await ticketOf(line);
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999']) {
      const answer = await api.request('PATCH', `/v1/discrepancies/${ticket.id}`, {
        key,
        headers: { 'if-match': bad },
        body: { owner: 'dave' },
      });
      expect(answer.status, bad).toBe(400);
      expect(answer.body.error.code).toBe('VALIDATION_FAILED');
      expect(answer.body.error.details.fields[0].path).toBe('If-Match');
    }
  });
});
