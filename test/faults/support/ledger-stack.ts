import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { databaseUrlFor, recreateDatabase } from '../../bench/bench-database';
import { BUILT, BuiltProcess, READY_LINE } from '../../support/built-process';
import { freePort } from '../../support/free-port';
import { type Answer, apiIsHealthy, requestJson } from '../../support/http-json';

/** Longer than any request the API should take; a hung request is a failure the tests report. */
const REQUEST_TIMEOUT_MS = 30_000;

export const FAULT_OPERATOR_TOKEN = 'fault-operator-token-0123456789';

export interface StackOptions {
  /** The server's `postgres` database; the stack makes a database of its own beside it. */
  adminDatabaseUrl: string;
  natsUrl: string;
  natsStream: string;
  /** More environment for every process (e.g. a shorter reconciliation lease). */
  settings?: Record<string, string>;
}

/**
 * The built API and worker as separate processes on one database, as production runs them: each can be
 * SIGKILLed and started again (the API on the same port, so clients keep their address).
 */
export class LedgerStack {
  api: BuiltProcess | undefined;
  worker: BuiltProcess | undefined;
  /** SIGKILLs done, per process kind. */
  readonly kills = { api: 0, worker: 0, cli: 0 };

  private constructor(
    readonly databaseUrl: string,
    readonly databaseName: string,
    readonly port: number,
    private readonly options: StackOptions,
  ) {}

  static async create(options: StackOptions): Promise<LedgerStack> {
    const databaseName = `faults_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    await recreateDatabase(options.adminDatabaseUrl, databaseName);
    return new LedgerStack(
      databaseUrlFor(options.adminDatabaseUrl, databaseName),
      databaseName,
      await freePort(),
      options,
    );
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  environment(extra: Record<string, string> = {}): Record<string, string> {
    return {
      DATABASE_URL: this.databaseUrl,
      DATABASE_POOL_SIZE: '8',
      PORT: String(this.port),
      LEDGER_ADMIN_TOKEN: FAULT_OPERATOR_TOKEN,
      LEDGER_DEMO_DATA: 'false',
      LEDGER_WORKER_IN_PROCESS: 'false',
      RATE_LIMIT_PER_SECOND: '0',
      NATS_URL: this.options.natsUrl,
      NATS_STREAM: this.options.natsStream,
      NATS_SUBJECT_PREFIX: this.options.natsStream.toLowerCase(),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      // One process, so a kill -9 of it is a crash of the process serving (and its CPU is one process's).
      API_PROCESSES: '1',
      ...this.options.settings,
      ...extra,
    };
  }

  async startApi(): Promise<void> {
    if (this.api?.running) throw new Error('the API is already running');
    this.api = BuiltProcess.spawn('api', BUILT.api, { env: this.environment() });
    await this.api.waitUntilReady(READY_LINE.api, () => apiIsHealthy(this.baseUrl));
  }

  /** `settings`: more environment for this start only (e.g. a reconciliation schedule). */
  async startWorker(settings: Record<string, string> = {}): Promise<void> {
    if (this.worker?.running) throw new Error('the worker is already running');
    this.worker = BuiltProcess.spawn('worker', BUILT.worker, { env: this.environment(settings) });
    await this.worker.waitUntilReady(READY_LINE.worker);
  }

  async killApi(): Promise<void> {
    await this.api?.kill9();
    this.kills.api++;
  }

  async killWorker(): Promise<void> {
    await this.worker?.kill9();
    this.kills.worker++;
  }

  /** The built CLI (`ledger <args>`) on this database; wait for `exited()` or kill it. */
  cli(args: string[]): BuiltProcess {
    return BuiltProcess.spawn(`ledger ${args[0]}`, BUILT.cli, { args, env: this.environment() });
  }

  async runCli(args: string[]): Promise<{ code: number | null; output: string }> {
    const command = this.cli(args);
    const code = await command.exited();
    return { code, output: command.printed };
  }

  request(
    method: string,
    path: string,
    options: { key?: string; body?: unknown; idempotencyKey?: string } = {},
  ): Promise<Answer> {
    return requestJson(this.baseUrl, method, path, { ...options, timeoutMs: REQUEST_TIMEOUT_MS });
  }

  /** A new tenant and its admin key, through the operator endpoint (as the test harness's createTenant). */
  async createTenant(name = 'fault tenant'): Promise<{ tenantId: string; adminKey: string }> {
    const created = await this.request('POST', '/v1/tenants', { key: FAULT_OPERATOR_TOKEN, body: { name } });
    if (created.status !== 201) throw new Error(`tenant: ${created.status} ${JSON.stringify(created.body)}`);
    return { tenantId: created.body.tenant.id, adminKey: created.body.apiKey };
  }

  /** One query on the stack's database, on a connection of its own. */
  async sql<Row extends object>(text: string, params: unknown[] = []): Promise<Row[]> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    await client.connect();
    try {
      return (await client.query<Row>(text, params)).rows;
    } finally {
      await client.end();
    }
  }

  /** Stops whatever still runs and drops the database. For afterAll: never throws. */
  async dispose(): Promise<void> {
    await Promise.all([this.api?.stop(), this.worker?.stop()].map((stopping) => stopping?.catch(() => undefined)));
    const client = new pg.Client({ connectionString: this.options.adminDatabaseUrl });
    try {
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${this.databaseName} WITH (FORCE)`);
    } catch {
      // the server may be gone already (a private cluster disposed first)
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  tails(): string {
    return [this.api?.tail(), this.worker?.tail()].filter(Boolean).join('\n\n');
  }
}

const WRITING_TRANSACTIONS = `
SELECT count(*)::int AS n FROM pg_stat_activity
 WHERE datname = current_database() AND backend_xid IS NOT NULL AND pid <> pg_backend_pid()`;
const WRITE_WAIT_MAX_MS = 60_000;

/** Waits until some process of the stack is inside a transaction that has written (has a transaction id). */
export async function waitForWritingTransaction(stack: LedgerStack): Promise<void> {
  const deadline = Date.now() + WRITE_WAIT_MAX_MS;
  while (Date.now() < deadline) {
    const [{ n }] = (await stack.sql<{ n: number }>(WRITING_TRANSACTIONS)) as [{ n: number }];
    if (n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no writing transaction within ${WRITE_WAIT_MAX_MS} ms:\n${stack.tails()}`);
}

const LOCK_WAITS = `
SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
 WHERE a.datname = current_database() AND NOT l.granted AND l.relation = to_regclass($1)`;

/** Waits until some process of the stack waits for a lock on `table` (one a test holds). */
export async function waitForLockWait(stack: LedgerStack, table: string): Promise<void> {
  const deadline = Date.now() + WRITE_WAIT_MAX_MS;
  while (Date.now() < deadline) {
    const [{ n }] = (await stack.sql<{ n: number }>(LOCK_WAITS, [table])) as [{ n: number }];
    if (n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`nothing waited for a lock on ${table} within ${WRITE_WAIT_MAX_MS} ms:\n${stack.tails()}`);
}
