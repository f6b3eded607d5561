import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, type ApiResponse, startApi } from './support/api-harness';
import { sqlRows } from './support/ledger-fixtures';
import { runReconciliation } from './support/reconciliation-fixtures';
import { type TicketTenant, getTicket, postTicket, tenantWithTickets } from './support/ticket-fixtures';

// A bulk change locks its tickets in id order, the order a run's sync locks in: two bulk changes naming
// the same tickets in opposite orders, or a bulk change and a run, wait for each other in a line, never
// in a circle. A deadlock would be retried and go unseen, so the tests look at the locks themselves: with
// the middle ticket held, a bulk change has locked the tickets below it and nothing above it, and the
// other locker has locked nothing yet.

const TICKETS = 9;
const MIDDLE = 4;

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

/** Backends of this test's database waiting for a lock, with the ones they wait for. */
function waiters(): Promise<{ pid: number; blockers: number[] }[]> {
  return sqlRows(
    api,
    `SELECT pid, pg_blocking_pids(pid) AS blockers FROM pg_stat_activity
      WHERE datname = current_database() AND cardinality(pg_blocking_pids(pid)) > 0`,
  );
}

/** The backend waiting for one held by `pid` (polled generously: a loaded machine takes its time). */
async function waiterOn(pid: number, what: string): Promise<number> {
  for (let attempt = 0; attempt < 6_000; attempt++) {
    const waiting = (await waiters()).find((waiter) => waiter.blockers.includes(pid));
    if (waiting) return waiting.pid;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`gave up waiting: ${what}`);
}

/** The tickets among `ids` someone holds locked now: the ones a SKIP LOCKED lock of them all skips. */
async function lockedTickets(tenantId: string, ids: string[]): Promise<string[]> {
  const probe = new pg.Client({ connectionString: api.db.url });
  await probe.connect();
  try {
    await probe.query('BEGIN');
    const free = await probe.query<{ id: string }>(
      'SELECT id FROM discrepancies WHERE tenant_id = $1 AND id = ANY($2::uuid[]) FOR UPDATE SKIP LOCKED',
      [tenantId, ids],
    );
    await probe.query('ROLLBACK');
    const unlocked = new Set(free.rows.map((row) => row.id));
    return ids.filter((id) => !unlocked.has(id)).sort();
  } finally {
    await probe.end();
  }
}

/** Holds one ticket locked on a connection of its own, until `release`. */
async function holdTicket(tenantId: string, id: string) {
  const holder = new pg.Client({ connectionString: api.db.url });
  await holder.connect();
  const [{ pid }] = (await holder.query('SELECT pg_backend_pid() AS pid')).rows;
  await holder.query('BEGIN');
  await holder.query('SELECT id FROM discrepancies WHERE tenant_id = $1 AND id = $2 FOR UPDATE', [tenantId, id]);
  return {
    pid: pid as number,
    async release() {
      await holder.query('ROLLBACK');
      await holder.end();
    },
  };
}

function bulk(team: TicketTenant, ids: string[], owner: string): Promise<ApiResponse> {
  return postTicket(api, team.key, '/v1/discrepancies/bulk', { ids, owner });
}

const RACE_TIMEOUT_MS = 300_000;

describe('a bulk change locks its tickets in id order', () => {
  it(
    'waits in line with another bulk change naming the same tickets in the opposite order',
    async () => {
      const team = await tenantWithTickets(api, 'bulk against bulk', TICKETS);
      const ids: string[] = team.tickets.map((ticket) => ticket.id);
      const held = await holdTicket(team.tenant.tenantId, ids[MIDDLE]!);
      let first: Promise<ApiResponse> | undefined;
      let second: Promise<ApiResponse> | undefined;
      try {
        first = bulk(team, ids, 'alice');
        const firstPid = await waiterOn(held.pid, 'the first bulk change waiting for the held ticket');
        second = bulk(team, [...ids].reverse(), 'bob');
        await waiterOn(firstPid, 'the second bulk change waiting for the first');
        expect(await lockedTickets(team.tenant.tenantId, ids)).toEqual(ids.slice(0, MIDDLE + 1));
      } finally {
        await held.release();
      }
      const answers = await Promise.all([first, second]);
      for (const answer of answers) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        expect(answer.body.results.map((result: any) => result.outcome)).toEqual(ids.map(() => 'updated'));
      }
      for (const id of ids) {
        const ticket = await getTicket(api, team.key, id);
        expect(ticket.owner).toBe('bob');
        expect(ticket.history.filter((event: any) => event.action === 'assigned')).toHaveLength(2);
      }
    },
    RACE_TIMEOUT_MS,
  );

  it(
    "waits in line with a run's sync, whatever order the ids are sent in, and the run keeps the new owner",
    async () => {
      const team = await tenantWithTickets(api, 'bulk against run', TICKETS);
      const ids: string[] = team.tickets.map((ticket) => ticket.id);
      const held = await holdTicket(team.tenant.tenantId, ids[MIDDLE]!);
      let change: Promise<ApiResponse> | undefined;
      let run: Promise<unknown> | undefined;
      try {
        change = bulk(team, [...ids].reverse(), 'carol');
        const bulkPid = await waiterOn(held.pid, 'the bulk change waiting for the held ticket');
        run = runReconciliation(api, team.key);
        await waiterOn(bulkPid, "the run's sync waiting for the bulk change");
        expect(await lockedTickets(team.tenant.tenantId, ids)).toEqual(ids.slice(0, MIDDLE + 1));
      } finally {
        await held.release();
      }
      const [answer] = await Promise.all([change, run]);
      expect(answer!.status, JSON.stringify(answer!.body)).toBe(200);
      for (const id of ids) expect((await getTicket(api, team.key, id)).owner).toBe('carol');
    },
    RACE_TIMEOUT_MS,
  );
});
