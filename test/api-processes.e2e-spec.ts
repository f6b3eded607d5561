import { readFileSync, readdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '@ledger/db';
import { YOUNG_GENERATION_FLAG } from '../apps/api/src/node-flags';
import { processCpuMs } from './bench/cpu-usage';
import { BUILT, BuiltProcess, READY_LINE } from './support/built-process';
import { freePort } from './support/free-port';
import { type Answer, apiIsHealthy, requestJson } from './support/http-json';

// API_PROCESSES=2: the built API forks two processes that share its port (node:cluster). Both serve,
// every acknowledged posting is stored once, a process killed with -9 is replaced while the other
// serves on, and SIGTERM stops the supervisor and both processes.

const OPERATOR_TOKEN = `operator-${randomUUID()}`;
const POSTINGS = 400;
const CLIENTS = 16;
const PROCESS_WAIT_MS = 30_000;

let database: TestDatabase;
let api: BuiltProcess;
let baseUrl: string;

/** The pids whose parent is `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      if (new RegExp(`^PPid:\\s+${pid}$`, 'm').test(status)) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children.sort((left, right) => left - right);
}

async function until<T>(what: string, probe: () => T | undefined): Promise<T> {
  const deadline = Date.now() + PROCESS_WAIT_MS;
  while (Date.now() < deadline) {
    const value = probe();
    if (value !== undefined) return value;
    await sleep(100);
  }
  throw new Error(`${what} did not happen within ${PROCESS_WAIT_MS} ms:\n${api.tail()}`);
}

function call(method: string, path: string, options: { key?: string; body?: unknown } = {}): Promise<Answer> {
  return requestJson(baseUrl, method, path, { ...options, idempotencyKey: randomUUID(), timeoutMs: 30_000 });
}

async function created(answer: Promise<Answer>): Promise<any> {
  const { status, body } = await answer;
  expect(status, JSON.stringify(body)).toBe(201);
  return body;
}

function transfer(key: string, reference: string): Promise<Answer> {
  return call('POST', '/v1/transactions', {
    key,
    body: {
      externalRef: reference,
      entries: [
        { account: 'assets:cash', direction: 'debit', amount: '1', currency: 'EUR' },
        { account: 'income:sales', direction: 'credit', amount: '1', currency: 'EUR' },
      ],
    },
  });
}

/** Sends `references` from CLIENTS concurrent clients; answers the status of each. */
async function postAll(key: string, references: string[]): Promise<Map<string, number>> {
  const statuses = new Map<string, number>();
  const queue = [...references];
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let reference = queue.shift(); reference !== undefined; reference = queue.shift()) {
        statuses.set(
          reference,
          await transfer(key, reference).then(
            (answer) => answer.status,
            () => 0,
          ),
        );
      }
    }),
  );
  return statuses;
}

beforeAll(async () => {
  database = await createTestDatabase(2);
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  api = BuiltProcess.spawn('api', BUILT.api, {
    env: {
      DATABASE_URL: database.url,
      DATABASE_POOL_SIZE: '4',
      PORT: String(port),
      API_PROCESSES: '2',
      LEDGER_ADMIN_TOKEN: OPERATOR_TOKEN,
      LEDGER_DEMO_DATA: 'false',
      LEDGER_WORKER_IN_PROCESS: 'false',
      RATE_LIMIT_PER_SECOND: '0',
      LOG_LEVEL: 'warn',
    },
  });
  await api.waitUntilReady(READY_LINE.api, () => apiIsHealthy(baseUrl));
});

afterAll(async () => {
  await api?.stop();
  await database?.drop();
});

describe('API_PROCESSES=2', () => {
  it('serves from both, stores each acknowledged posting once, replaces one killed, stops on SIGTERM', async () => {
    expect(api.printed).toContain('starting 2 API processes');
    expect(api.printed).toContain('API processes:       2 on this port');
    const processes = await until('two API processes', () => {
      const children = childrenOf(api.pid);
      return children.length === 2 ? children : undefined;
    });
    // Each forked process runs with the young generation the supervisor gives it (node-flags.ts).
    for (const pid of processes)
      expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain(YOUNG_GENERATION_FLAG);

    const tenant = await created(call('POST', '/v1/tenants', { key: OPERATOR_TOKEN, body: { name: 'processes' } }));
    for (const code of ['assets:cash', 'income:sales']) {
      await created(
        call('POST', '/v1/accounts', {
          key: tenant.apiKey,
          body: { code, currency: 'EUR', normalBalance: code.startsWith('assets') ? 'debit' : 'credit' },
        }),
      );
    }

    const poster = await created(
      call('POST', '/v1/api-keys', { key: tenant.apiKey, body: { name: 'poster', roles: ['poster'] } }),
    );

    // Connections are handed to the processes in turn: with CLIENTS connections each process gets some.
    const before = processes.map(processCpuMs);
    const references = Array.from({ length: POSTINGS }, (_, index) => `two-processes-${index}`);
    const statuses = await postAll(poster.key, references);
    const worked = processes.map((pid, index) => processCpuMs(pid) - before[index]!);
    expect([...statuses.values()].filter((status) => status !== 201)).toEqual([]);
    // Serving ~200 postings costs a process hundreds of ms of CPU; an idle one spends next to nothing.
    console.log(`CPU ms of each API process while posting: ${worked.join(', ')}`);
    // Five clock ticks (at 100 per second) or more.
    for (const cpuMs of worked) expect(cpuMs, `CPU ms of each process: ${worked}`).toBeGreaterThan(50);

    // One killed: the other keeps serving, and the supervisor forks a replacement.
    process.kill(processes[0]!, 'SIGKILL');
    const replaced = await until('a replacement process', () => {
      const children = childrenOf(api.pid);
      return children.length === 2 && !children.includes(processes[0]!) ? children : undefined;
    });
    expect(replaced).toContain(processes[1]);
    await until('the replacement serving', () => (api.printed.includes('starting another') ? true : undefined));
    const later = Array.from({ length: 40 }, (_, index) => `after-kill-${index}`);
    const laterStatuses = await postAll(poster.key, later);
    expect([...laterStatuses.values()].filter((status) => status !== 201)).toEqual([]);

    const rows = await database.database.sql.query<{ acknowledged: string; distinct_refs: string }>(
      `SELECT count(*)::text AS acknowledged, count(DISTINCT external_ref)::text AS distinct_refs
         FROM transactions WHERE tenant_id = $1`,
      [tenant.tenant.id],
    );
    expect(rows[0]).toEqual({ acknowledged: String(POSTINGS + 40), distinct_refs: String(POSTINGS + 40) });

    await api.stop();
    expect(await api.exited()).toBe(0);
    for (const pid of replaced) expect(() => process.kill(pid, 0), `pid ${pid} is gone`).toThrow();
  }, 120_000);

  it('the processes stop by themselves when their supervisor is killed with -9', async () => {
    const port = await freePort();
    const orphaned = BuiltProcess.spawn('api', BUILT.api, {
      env: {
        DATABASE_URL: database.url,
        DATABASE_POOL_SIZE: '2',
        PORT: String(port),
        API_PROCESSES: '2',
        LEDGER_ADMIN_TOKEN: OPERATOR_TOKEN,
        LOG_LEVEL: 'warn',
      },
    });
    try {
      await orphaned.waitUntilReady(READY_LINE.api, () => apiIsHealthy(`http://127.0.0.1:${port}`));
      const children = childrenOf(orphaned.pid);
      expect(children).toHaveLength(2);
      await orphaned.kill9();
      await until('both processes gone', () =>
        children.every((pid) => {
          try {
            process.kill(pid, 0);
            return false;
          } catch {
            return true;
          }
        })
          ? true
          : undefined,
      );
      expect(await apiIsHealthy(`http://127.0.0.1:${port}`)).toBe(false);
    } finally {
      await orphaned.stop();
    }
  }, 60_000);
});
