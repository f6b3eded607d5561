import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, TEST_OPERATOR_TOKEN, startApi } from './support/api-harness';
import {
  type TestTenant,
  createAccount,
  expectValidationError,
  postTransaction,
  setupTenant,
  transfer,
} from './support/ledger-fixtures';
import {
  PRIMARY_SETTINGS,
  type PrivatePostgres,
  startPrivatePostgres,
  startPrivateStandby,
} from './support/private-postgres';

// A private primary and its hot standby (streaming replication), and the API reading from the standby.
// Low bounds so that the bypasses show within the test: a token read waits 300 ms at most, and a replica
// 2 s behind is bypassed for every read.
const CONSISTENCY_WAIT_MS = 300;
const LAG_MAX_MS = 2_000;
/** How long a state change may take to show (the replica is checked every second). */
const SETTLE_MS = 20_000;
const POSTINGS = 200;

let primary: PrivatePostgres | undefined;
let standby: PrivatePostgres | undefined;
let api: ApiHarness;
let tenant: TestTenant;

function databaseUrl(server: PrivatePostgres): string {
  return `postgresql://postgres@127.0.0.1:${server.port}/ledger`;
}

async function onServer(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  primary = await startPrivatePostgres(PRIMARY_SETTINGS);
  await onServer(primary.adminUrl, 'CREATE DATABASE ledger');
  standby = await startPrivateStandby(primary);
  api = await startApi({
    poolSize: 10,
    postgres: { url: databaseUrl(primary), readUrl: databaseUrl(standby) },
    settings: {
      LEDGER_READ_CONSISTENCY_WAIT_MS: String(CONSISTENCY_WAIT_MS),
      LEDGER_REPLICA_LAG_MAX_MS: String(LAG_MAX_MS),
    },
  });
  tenant = await setupTenant(api, 'read replica');
  await createAccount(api, tenant.adminKey, { code: 'assets:cash', currency: 'USD', normalBalance: 'debit' });
  await createAccount(api, tenant.adminKey, { code: 'income:sales', currency: 'USD', normalBalance: 'credit' });
}, 120_000);

afterAll(async () => {
  await api?.close();
  await standby?.dispose();
  await primary?.dispose();
});

/** Waits (bounded) until `check` holds; fails with what it last saw. */
async function eventually<T>(what: string, read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await sleep(50);
  }
}

let posted = 0;

/** Posts 1 USD to the cash account; answers the token the write came back with. */
async function postOne(): Promise<string> {
  const answer = await postTransaction(api, tenant.posterKey, transfer('assets:cash', 'income:sales', '1'));
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  posted++;
  const token = answer.headers.get('ledger-consistency');
  expect(token).toMatch(/^[0-9A-F]{1,8}\/[0-9A-F]{1,8}$/);
  return token!;
}

async function readCash(token?: string): Promise<{ balance: number; servedBy: string | null }> {
  const answer = await api.request('GET', '/v1/accounts/assets:cash', {
    key: tenant.posterKey,
    headers: token === undefined ? {} : { 'ledger-consistency': token },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return { balance: Number(answer.body.balances.posted), servedBy: answer.headers.get('ledger-read-from') };
}

async function health(): Promise<any> {
  const answer = await api.request('GET', '/health');
  expect(answer.status, 'the replica never fails readiness').toBe(200);
  return answer.body;
}

async function metric(name: string, labels: string): Promise<number> {
  const answer = await fetch(`${api.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` } });
  const text = await answer.text();
  const prefix = labels === '' ? `${name} ` : `${name}{${labels}}`;
  const line = text.split('\n').find((each) => each.startsWith(prefix));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

async function onStandby(statement: string): Promise<void> {
  await onServer(databaseUrl(standby!), statement);
}

describe('a read replica with read-your-writes', () => {
  it('a read carrying the token of the write before it is never stale, and the replica serves it', async () => {
    let stale = 0;
    const servedBy = { replica: 0, primary: 0 };
    for (let i = 0; i < POSTINGS; i++) {
      const token = await postOne();
      const read = await readCash(token);
      if (read.balance !== posted) stale++;
      servedBy[read.servedBy as 'replica' | 'primary']++;
    }
    console.log(`token reads after ${POSTINGS} postings: ${JSON.stringify(servedBy)}, stale ${stale}`);
    expect(stale).toBe(0);
    expect(servedBy.replica + servedBy.primary).toBe(POSTINGS);
    expect(servedBy.replica).toBeGreaterThan(0);
    expect(await metric('ledger_reads_total', 'served_by="replica"')).toBeGreaterThanOrEqual(servedBy.replica);
    const waited =
      (await metric('ledger_read_consistency_waits_total', 'outcome="immediate"')) +
      (await metric('ledger_read_consistency_waits_total', 'outcome="caught_up"'));
    expect(waited).toBe(servedBy.replica);
    expect(await health()).toMatchObject({ status: 'ok', replica: { state: 'ok' } });
  });

  it('a read without a token goes to the replica; the event feed and /health stay on the primary', async () => {
    await postOne();
    // No token: possibly a moment behind, never ahead.
    const read = await eventually('an untokened read', readCash, (value) => value.balance === posted);
    expect(read.servedBy).toBe('replica');
    const events = await api.request('GET', '/v1/events', { key: tenant.posterKey });
    expect(events.status).toBe(200);
    expect(events.headers.get('ledger-read-from')).toBe('primary');
    expect((await api.request('GET', '/health')).headers.get('ledger-read-from')).toBe('primary');
  });

  it('a token that is not a WAL position is 400 VALIDATION_FAILED', async () => {
    for (const token of ['latest', '16/', '0/0/0']) {
      const answer = await api.request('GET', '/v1/accounts/assets:cash', {
        key: tenant.posterKey,
        headers: { 'ledger-consistency': token },
      });
      expectValidationError(answer, 'Ledger-Consistency');
    }
  });

  it('a stopped replica is bypassed, /health warns without failing, and it is used again once back', async () => {
    await standby!.stop('fast');
    const token = await postOne();
    expect(await readCash(token)).toEqual({ balance: posted, servedBy: 'primary' });
    expect(await readCash()).toEqual({ balance: posted, servedBy: 'primary' });
    const down = await eventually('health with the replica stopped', health, (body) => body.replica.state === 'down');
    expect(down).toMatchObject({ status: 'warn', database: 'up', replica: { lagSeconds: null } });
    expect(down.warnings.join(' ')).toMatch(/read replica does not answer/);
    expect(await metric('ledger_replica_state', 'state="down"')).toBe(1);

    await standby!.start();
    await eventually('health with the replica back', health, (body) => body.replica.state === 'ok');
    const again = await eventually(
      'a read once the replica is back',
      readCash,
      (value) => value.servedBy === 'replica',
    );
    expect(again.balance).toBeLessThanOrEqual(posted);
    const tokened = await readCash(await postOne());
    expect(tokened.balance).toBe(posted);
  });

  it('a replica held behind: token reads bypass it after the bounded wait, all reads past the lag max', async () => {
    const timedOutBefore = await metric('ledger_read_consistency_waits_total', 'outcome="timed_out"');
    await onStandby('SELECT pg_wal_replay_pause()');
    try {
      const token = await postOne();
      expect(await readCash(token), 'the token read, after waiting').toEqual({ balance: posted, servedBy: 'primary' });
      expect(await metric('ledger_read_consistency_waits_total', 'outcome="timed_out"')).toBe(timedOutBefore + 1);
      await postOne();
      const lagging = await eventually('health with replay paused', health, (body) => body.replica.state === 'lagging');
      expect(lagging.status).toBe('warn');
      expect(lagging.replica.lagSeconds).toBeGreaterThan(LAG_MAX_MS / 1000);
      expect(await metric('ledger_replica_lag_seconds', '')).toBeGreaterThan(LAG_MAX_MS / 1000);
      expect(await readCash(), 'an untokened read of a lagging replica').toEqual({
        balance: posted,
        servedBy: 'primary',
      });
    } finally {
      await onStandby('SELECT pg_wal_replay_resume()');
    }
    await eventually('health with replay resumed', health, (body) => body.replica.state === 'ok');
    expect(await readCash(await postOne())).toEqual({ balance: posted, servedBy: 'replica' });
  });
});
