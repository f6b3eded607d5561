// What a user would pick instead of the API, measured beside it in the same run: plain SQL transfers
// driven by pgbench (the shared baselines file, as measured when the posting target was set), and
// pgledger's transfer function driven by pgbench (its SQL from the shared peers folder, never copied
// here). Each gets a database of its own on the same server; absent files or pgbench skip the rows.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchConfig } from './bench-config';
import { dropDatabase, recreateDatabase } from './bench-database';
import type { BenchLog } from './bench-log';
import type { LoadResult } from './load-loop';
import { BackendCpuSampler } from './cpu-usage';
import { type LoadGeneratorRun, runLoadGenerator } from './load-generator-process';
import { type PeerMode, TRANSFERS_PER_REQUEST, type WorkloadName } from './workloads';

/** Accounts of both peers: the shared baselines file creates 1,000 (the posting bench's BENCH_WALLETS=1000). */
const PEER_ACCOUNTS = 1_000;
const PGLEDGER_FILES = ['ulid-to-uuid.sql', 'uuid-to-ulid.sql', 'pgledger.sql'];
const SINGLE_SCRIPT_MARKER = '-- single.pgbench';

interface PeerDatabase {
  name: string;
  url: string;
  /** pgbench scripts by workload; a workload without one is not measured for this peer. */
  scripts: Partial<Record<WorkloadName, string>>;
}

export interface Peers {
  databases: Partial<Record<PeerMode, PeerDatabase>>;
  scriptsDirectory: string;
}

/** Runs psql on `url`; throws with its output when it fails. */
function psql(url: string, args: string[]): void {
  const run = spawnSync('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', ...args, url], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`psql ${args.join(' ')} failed: ${run.stderr || run.stdout}`);
}

/** The commented pgbench script at the end of the shared baselines file, uncommented. */
function singleScript(baselines: string): string {
  const after = baselines.slice(baselines.indexOf(SINGLE_SCRIPT_MARKER));
  return after
    .split('\n')
    .slice(1)
    .filter((line) => line.startsWith('-- '))
    .map((line) => line.slice(3))
    .join('\n');
}

async function setUpPlain(config: BenchConfig, file: string, directory: string): Promise<PeerDatabase> {
  const name = `${config.databaseName}_pgbench`;
  const url = await recreateDatabase(config.adminDatabaseUrl, name);
  psql(url, ['-f', file]);
  const single = singleScript(readFileSync(file, 'utf8'));
  const scripts: Partial<Record<WorkloadName, string>> = {};
  const write = async (workload: WorkloadName, text: string) => {
    scripts[workload] = join(directory, `pgbench-${workload}.pgbench`);
    await writeFile(scripts[workload], `${text}\n`);
  };
  await write('uncontended', single);
  // The file's own note: for one hot account, :a is 1.
  await write('hot', single.replace('\\set a random(1, 1000)', '\\set a 1'));
  await write('batch100', 'select batch_transfer(100);');
  await write('batch1000', 'select batch_transfer(1000);');
  return { name, url, scripts };
}

async function setUpPgledger(config: BenchConfig, folder: string, directory: string): Promise<PeerDatabase> {
  const name = `${config.databaseName}_pgledger`;
  const url = await recreateDatabase(config.adminDatabaseUrl, name);
  for (const file of PGLEDGER_FILES) psql(url, ['--single-transaction', '-f', join(folder, file)]);
  // Its account ids are text; a lookup table lets a script pick account n like the plain SQL script does.
  psql(url, [
    '-c',
    `CREATE TABLE bench_accounts (n int PRIMARY KEY, id text NOT NULL);
     INSERT INTO bench_accounts SELECT g, (pgledger_create_account('wallet ' || g, 'USD')).id
       FROM generate_series(1, ${PEER_ACCOUNTS}) g;`,
  ]);
  const transfer =
    'SELECT pgledger_create_transfer((SELECT id FROM bench_accounts WHERE n = :a), ' +
    '(SELECT id FROM bench_accounts WHERE n = :b), 1);';
  const scripts: Partial<Record<WorkloadName, string>> = {
    uncontended: join(directory, 'pgledger-uncontended.pgbench'),
    hot: join(directory, 'pgledger-hot.pgbench'),
  };
  // pgledger refuses a transfer to the same account, so b differs from a.
  const otherAccount = `\\set b 1 + (:a + random(0, ${PEER_ACCOUNTS - 2})) % ${PEER_ACCOUNTS}`;
  await writeFile(scripts.uncontended!, `\\set a random(1, ${PEER_ACCOUNTS})\n${otherAccount}\n${transfer}\n`);
  await writeFile(scripts.hot!, `\\set a 1\n\\set b random(2, ${PEER_ACCOUNTS})\n${transfer}\n`);
  return { name, url, scripts };
}

/** Creates and loads the peers' databases that can be measured here; logs a line for each that cannot. */
export async function setUpPeers(config: BenchConfig, log: BenchLog): Promise<Peers> {
  const scriptsDirectory = await mkdtemp(join(tmpdir(), 'ledger-bench-pgbench-'));
  const peers: Peers = { databases: {}, scriptsDirectory };
  if (spawnSync('pgbench', ['--version']).status !== 0) {
    log('pgbench is not installed: the pgbench and pgledger rows are skipped');
    return peers;
  }
  const baselines = join(config.sharedDirectory, 'bench', 'plain-sql-baselines.sql');
  if (existsSync(baselines)) peers.databases.pgbench = await setUpPlain(config, baselines, scriptsDirectory);
  else log(`${baselines} not found: the pgbench plain SQL rows are skipped`);
  const pgledger = join(config.sharedDirectory, 'peers', 'pgledger');
  if (PGLEDGER_FILES.every((file) => existsSync(join(pgledger, file))))
    peers.databases.pgledger = await setUpPgledger(config, pgledger, scriptsDirectory);
  else log(`${pgledger} not found: the pgledger rows are skipped`);
  return peers;
}

export function peerMeasures(peers: Peers, mode: PeerMode, workload: WorkloadName): boolean {
  return peers.databases[mode]?.scripts[workload] !== undefined;
}

export async function tearDownPeers(peers: Peers, config: BenchConfig): Promise<void> {
  await rm(peers.scriptsDirectory, { recursive: true, force: true });
  if (config.keepDatabases) return;
  for (const database of Object.values(peers.databases))
    await dropDatabase(config.adminDatabaseUrl, database.name).catch(() => undefined);
}

/** Every transaction's latency, from pgbench's per-transaction logs (-l): the third field, in µs. */
export async function loggedLatenciesMs(directory: string): Promise<Float64Array> {
  const latencies: number[] = [];
  for (const file of await readdir(directory)) {
    for (const line of readFileSync(join(directory, file), 'utf8').split('\n')) {
      const microseconds = Number(line.split(' ')[2]);
      if (Number.isFinite(microseconds) && line !== '') latencies.push(microseconds / 1000);
    }
  }
  return Float64Array.from(latencies);
}

export interface PeerRun {
  result: LoadResult;
  cpuMs: { postgres: number; benchClient: number };
}

/** ANALYZE of the peer's database (before each of its runs: see refreshStatistics in posting-suite.ts). */
export function analyzePeer(peers: Peers, mode: PeerMode): void {
  psql(peers.databases[mode]!.url, ['-c', 'ANALYZE']);
}

/** One closed-loop run of `transfers` (rounded up to whole transactions per client) through pgbench. */
export async function runPeer(
  peers: Peers,
  mode: PeerMode,
  workload: WorkloadName,
  concurrency: number,
  transfers: number,
  timeoutMs: number,
): Promise<PeerRun> {
  const database = peers.databases[mode]!;
  const perRequest = TRANSFERS_PER_REQUEST[workload];
  const perClient = Math.max(1, Math.ceil(transfers / perRequest / concurrency));
  const logs = join(peers.scriptsDirectory, `log-${mode}-${workload}-${Date.now()}`);
  await mkdir(logs);
  const args = ['-n', '-c', String(concurrency), '-j', String(Math.min(concurrency, 2)), '-t', String(perClient)];
  args.push('-f', database.scripts[workload]!, '-l', `--log-prefix=${join(logs, 'tx')}`);
  const sampler = new BackendCpuSampler(database.name);
  sampler.start();
  let run: LoadGeneratorRun;
  try {
    run = await runLoadGenerator('pgbench', [...args, database.url], timeoutMs + 30_000);
  } finally {
    sampler.stop();
  }
  const processed = Number(/number of transactions actually processed: (\d+)/.exec(run.stdout)?.[1] ?? 0);
  const tps = Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(run.stdout)?.[1] ?? 0);
  const expected = perClient * concurrency;
  const latenciesMs = await loggedLatenciesMs(logs);
  await rm(logs, { recursive: true, force: true });
  const transfersCreated = processed * perRequest;
  return {
    result: {
      requestsAttempted: expected,
      transfersCreated,
      elapsedMs: tps > 0 ? (processed / tps) * 1000 : 0,
      timedOut: false,
      latenciesMs,
      errors:
        processed < expected ? { 'pgbench: transactions not processed': (expected - processed) * perRequest } : {},
    },
    cpuMs: { postgres: sampler.totalCpuMs(), benchClient: run.clientCpuMs },
  };
}
