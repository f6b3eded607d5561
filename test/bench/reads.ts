// Reads through the API and beside it: an account with its balances by id and by code, its history's first
// page, and one transaction by id, each at BENCH_CONCURRENCIES' highest number of closed-loop clients for
// BENCH_READ_SECONDS, BENCH_RUNS times on one API process and database; and the same account row read by
// pgbench on that database (the physical baseline; skipped with a line without pgbench). Prints medians
// with min-max, p50/p99 and the reader's CPU per read. See README.md ("Reads").
//   npm run bench:reads
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BenchApi, withBenchApi } from './bench-api';
import type { ApiFixture } from './bench-setup';
import { type PhaseRun, latencySummary, printPhaseTable } from './closed-loop';
import { transferBody } from './http-load';
import { runLoadGenerator } from './load-generator-process';
import { loggedLatenciesMs } from './pgbench-peers';
import { nextTransfer, walletCode } from './workloads';

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
  await withBenchApi('reads', async (bench) => {
    const { config, clients, databaseUrl, http, fixture } = bench;
    const transactionIds = await postHistory(bench);
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
    const measure = (phase: ApiPhase) => bench.measure(work[phase], seconds);
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
  });
}

/** Two-leg transfers between random wallets, posted through the API and not measured; their ids. */
async function postHistory({ fixture, post, measure }: BenchApi): Promise<string[]> {
  const ids: string[] = [];
  let left = fixture.walletIds.length * HISTORY_TRANSFERS_PER_WALLET;
  await measure(async () => {
    if (left-- <= 0) return false;
    ids.push((await post('/v1/transactions', transferBody(nextTransfer('uncontended', fixture)))).id);
    return true;
  }, SECONDS_MAX);
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
