// Reads through the API and beside it: an account with its balances by id and by code, its history's first
// page, and one transaction by id, each at BENCH_CONCURRENCIES' highest number of closed-loop clients for
// BENCH_READ_SECONDS, BENCH_RUNS times on one API process and database; and the same account row read by
// pgbench on that database (the physical baseline; skipped with a line without pgbench). Prints medians
// with min-max, p50/p99 and the reader's CPU per read. See README.md ("Reads").
//   npm run bench:reads
import { spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../support/free-port';
import { type AppProcess, startApp } from './app-process';
import { loadBenchConfig } from './bench-config';
import { dropDatabase, recreateDatabase } from './bench-database';
import { type ApiFixture, setupApiFixture } from './bench-setup';
import { type PhaseRun, latencySummary, measureClosedLoop, printPhaseTable } from './closed-loop';
import { HttpClient } from './http-client';
import { runLoadGenerator } from './load-generator-process';
import { loggedLatenciesMs } from './pgbench-peers';
import { CURRENCY, TRANSFER_AMOUNT_MAX_MINOR, walletCode } from './workloads';

const SECONDS_MAX = 120;
const seconds = Math.min(SECONDS_MAX, Math.max(1, Number(process.env.BENCH_READ_SECONDS ?? 5)));
/** Transfers posted per wallet before the reads, so that a history's first page is full (2 entries each). */
const HISTORY_TRANSFERS_PER_WALLET = 10;
const PAGE_SIZE = 20;

const API_PHASES = [
  'account by id',
  'account by code',
  `entries, first page of ${PAGE_SIZE}`,
  'transaction by id',
] as const;
type ApiPhase = (typeof API_PHASES)[number];
const PGBENCH_PHASE = 'account by code, plain SQL driven by pgbench';

async function main(): Promise<void> {
  const config = loadBenchConfig();
  const clients = Math.max(...config.concurrencies);
  const operatorToken = `bench-operator-${randomBytes(12).toString('hex')}`;
  const databaseName = `${config.databaseName}_reads`;
  const databaseUrl = await recreateDatabase(config.adminDatabaseUrl, databaseName);
  const api = await startApp({
    app: 'api',
    databaseUrl,
    port: await freePort(),
    adminToken: operatorToken,
    poolSize: config.apiPoolSize,
    nodeArgs: config.apiNodeArgs,
    node: config.apiNode,
  });
  const http = new HttpClient(api.baseUrl, clients);
  try {
    const fixture = await setupApiFixture(http, config, operatorToken);
    const transactionIds = await postHistory(api, http, fixture, clients);
    const wallet = () => Math.floor(Math.random() * fixture.walletIds.length);
    const transaction = () => transactionIds[Math.floor(Math.random() * transactionIds.length)];
    const read = (path: () => string) => async () => {
      const answer = await http.request({ method: 'GET', path: path(), bearer: fixture.posterKey });
      if (answer.status !== 200) throw new Error(`${answer.status} ${answer.body.slice(0, 300)}`);
      return true;
    };
    const work: Record<ApiPhase, () => Promise<boolean>> = {
      'account by id': read(() => `/v1/accounts/${fixture.walletIds[wallet()]}`),
      'account by code': read(() => `/v1/accounts/${walletCode(wallet() + 1)}`),
      [`entries, first page of ${PAGE_SIZE}`]: read(
        () => `/v1/accounts/${fixture.walletIds[wallet()]}/entries?limit=${PAGE_SIZE}`,
      ),
      'transaction by id': read(() => `/v1/transactions/${transaction()}`),
    };
    const measure = (phase: ApiPhase) => measureClosedLoop(api.process.pid, clients, seconds, work[phase]);
    for (const phase of API_PHASES) await measure(phase);
    const pgbench = await PgbenchReads.setUp(databaseUrl, fixture);
    const runs = new Map<string, PhaseRun[]>([...API_PHASES, PGBENCH_PHASE].map((phase) => [phase, []]));
    try {
      for (let run = 0; run < config.runCount; run++) {
        for (const phase of API_PHASES) runs.get(phase)!.push(await measure(phase));
        if (pgbench) runs.get(PGBENCH_PHASE)!.push(await pgbench.run(clients));
        console.error(`run ${run + 1}/${config.runCount}: ${JSON.stringify([...runs].map(([, each]) => each.at(-1)))}`);
      }
    } finally {
      await pgbench?.tearDown();
    }
    if (!pgbench) runs.delete(PGBENCH_PHASE);
    console.log(`Reads, ${clients} clients, ${seconds} s a run, medians of runs:`);
    console.log('');
    printPhaseTable(runs, 'CPU ms per read: the API (pgbench on its row)');
  } finally {
    await api.process.stop();
    if (!config.keepDatabases) await dropDatabase(config.adminDatabaseUrl, databaseName);
  }
}

/** Two-leg transfers between random wallets, posted through the API and not measured; their ids. */
async function postHistory(api: AppProcess, http: HttpClient, fixture: ApiFixture, clients: number): Promise<string[]> {
  const wallets = fixture.walletIds;
  const ids: string[] = [];
  let left = wallets.length * HISTORY_TRANSFERS_PER_WALLET;
  await measureClosedLoop(api.process.pid, clients, SECONDS_MAX, async () => {
    if (left-- <= 0) return false;
    const from = Math.floor(Math.random() * wallets.length);
    const to = (from + 1 + Math.floor(Math.random() * (wallets.length - 1))) % wallets.length;
    const amount = String(1 + Math.floor(Math.random() * TRANSFER_AMOUNT_MAX_MINOR));
    const posted = await http.expectJson<{ id: string }>(
      {
        method: 'POST',
        path: '/v1/transactions',
        bearer: fixture.posterKey,
        idempotencyKey: randomUUID(),
        body: {
          entries: [
            { account: wallets[from], direction: 'debit', amount, currency: CURRENCY },
            { account: wallets[to], direction: 'credit', amount, currency: CURRENCY },
          ],
        },
      },
      201,
    );
    ids.push(posted.id);
    return true;
  });
  return ids;
}

/** The same account row as the API's read by code, selected by pgbench on the API's database. */
class PgbenchReads {
  private constructor(
    private readonly databaseUrl: string,
    private readonly tenantId: string,
    private readonly directory: string,
    private readonly script: string,
  ) {}

  static async setUp(databaseUrl: string, fixture: ApiFixture): Promise<PgbenchReads | undefined> {
    if (spawnSync('pgbench', ['--version']).status !== 0) {
      console.error('pgbench is not installed: its row is left out');
      return undefined;
    }
    const directory = await mkdtemp(join(tmpdir(), 'bench-reads-'));
    const script = join(directory, 'account-by-code.pgbench');
    const lines = [
      `\\set n random(1, ${fixture.walletIds.length})`,
      `SELECT * FROM accounts WHERE tenant_id = :tenant AND code = 'wallet:' || lpad(:n::text, 5, '0');`,
    ];
    await writeFile(script, `${lines.join('\n')}\n`);
    return new PgbenchReads(databaseUrl, fixture.tenantId, directory, script);
  }

  /** One run of `clients` connections for the bench's seconds: reads per second, p50/p99, pgbench's CPU. */
  async run(clients: number): Promise<PhaseRun> {
    const logs = join(this.directory, `log-${Date.now()}`);
    await mkdir(logs);
    const args = ['-n', '-M', 'prepared', '-c', String(clients), '-j', String(Math.min(clients, 2))];
    args.push('-T', String(seconds), '-D', `tenant=${this.tenantId}`, '-f', this.script);
    args.push('-l', `--log-prefix=${join(logs, 'tx')}`, this.databaseUrl);
    const run = await runLoadGenerator('pgbench', args, (seconds + 30) * 1000);
    const latencies = await loggedLatenciesMs(logs);
    await rm(logs, { recursive: true, force: true });
    const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(run.stdout)?.[1] ?? 0);
    return { ...latencySummary(latencies, latencies.length / tps), cpuMs: run.clientCpuMs / latencies.length };
  }

  async tearDown(): Promise<void> {
    await rm(this.directory, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
