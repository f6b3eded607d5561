// The posting suite of `npm run bench`: throughput and latency of the API against plain SQL doing the
// minimum a ledger must do, on an uncontended, a hot-account and two batch workloads. See README.md.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { freePort } from '../support/free-port';
import { type AppProcess, startApp } from './app-process';
import type { BenchConfig } from './bench-config';
import { benchPool, dropDatabase, recreateDatabase } from './bench-database';
import type { BenchLog } from './bench-log';
import { type ApiFixture, setupApiFixture, setupSqlFixture } from './bench-setup';
import { type BooksCheck, checkBooks, describeCheck } from './checks';
import { type CpuSnapshot, cpuSpentBetween, takeCpuSnapshot } from './cpu-usage';
import { HttpClient } from './http-client';
import { runHttpLoad } from './http-load';
import type { LoadResult } from './load-loop';
import { ActivitySampler, type ConnectionStates } from './pg-activity';
import type { Cell, ProcessCell } from './posting-report';
import { SQL_APPLICATION_NAME, runSqlLoad } from './sql-load';
import { type RunSummary, summarizeCell, summarizeRun } from './stats';
import { type Peers, analyzePeer, peerMeasures, runPeer, setUpPeers, tearDownPeers } from './pgbench-peers';
import {
  type Fixture,
  MODES,
  type Mode,
  PEER_MODES,
  type PeerMode,
  TRANSFERS_PER_REQUEST,
  type WorkloadName,
  isBatchWorkload,
} from './workloads';

/** Which pg_stat_activity rows belong to a mode: the API's own pool calls itself 'ledger'. */
const APPLICATION_NAMES: Record<(typeof MODES)[number], string> = { api: 'ledger', sql: SQL_APPLICATION_NAME };

/** pgbench's connections are its own, on the peer's database: their states are not sampled. */
const NOT_SAMPLED: ConnectionStates = {
  waitingForClient: Number.NaN,
  lockWait: Number.NaN,
  executing: Number.NaN,
  samples: 0,
};

function isPeerMode(mode: Mode): mode is PeerMode {
  return (PEER_MODES as readonly Mode[]).includes(mode);
}

interface BenchContext {
  config: BenchConfig;
  log: BenchLog;
  databaseUrl: string;
  /** Started again for each extra API_PROCESSES value. */
  api: AppProcess;
  /** Checks, CHECKPOINT and the activity sampler: never used by a measured transfer. */
  monitor: pg.Pool;
  apiFixture: ApiFixture;
  sqlFixture: Fixture;
  peers: Peers;
  checks: BooksCheck[];
}

/** The modes a workload is measured in: the API, the bench's own SQL, and the peers that can run it. */
function modesOf(context: BenchContext, workload: WorkloadName): Mode[] {
  return [...MODES, ...PEER_MODES.filter((mode) => peerMeasures(context.peers, mode, workload))];
}

/**
 * What autovacuum does on a server that runs it: analyze a table once it has grown by 50 rows and 10%.
 * The local server runs without it, so every run (warm-ups too) starts with an analyze of its mode's
 * database. Never analyzed, the posting statements' plans read every account of the tenant on each
 * write; analyzed only after the setup, while the runs grow the tables a thousandfold, a tenant that had
 * one transaction then is planned as one row, and the foreign-key checks of a posting chose the
 * external_ref index and read all the tenant's transactions (test/bench/README.md, "Statistics").
 */
async function refreshStatistics(context: BenchContext, mode: Mode): Promise<void> {
  if (isPeerMode(mode)) analyzePeer(context.peers, mode);
  else await context.monitor.query('ANALYZE');
}

async function measurePeerRun(
  context: BenchContext,
  workload: WorkloadName,
  concurrency: number,
  mode: PeerMode,
  transfers: number,
): Promise<RunSummary> {
  await context.monitor.query('CHECKPOINT');
  const run = await runPeer(context.peers, mode, workload, concurrency, transfers, context.config.runTimeoutMs);
  const perTransfer = (cpuMs: number) =>
    run.result.transfersCreated > 0 ? cpuMs / run.result.transfersCreated : Number.NaN;
  return summarizeRun(
    run.result,
    { apiNode: Number.NaN, postgres: perTransfer(run.cpuMs.postgres), benchClient: perTransfer(run.cpuMs.benchClient) },
    NOT_SAMPLED,
  );
}

async function measureRun(
  context: BenchContext,
  workload: WorkloadName,
  concurrency: number,
  mode: Mode,
  transfers: number,
): Promise<RunSummary> {
  // Every run starts with statistics of the tables as they are now, then right after a checkpoint, so no
  // run pays for another run's dirty pages.
  await refreshStatistics(context, mode);
  if (isPeerMode(mode)) return measurePeerRun(context, workload, concurrency, mode, transfers);
  const { config } = context;
  await context.monitor.query('CHECKPOINT');
  const sampler = new ActivitySampler(context.monitor, APPLICATION_NAMES[mode as (typeof MODES)[number]]);
  // Snapshots around the timed loop only: the SQL mode's connections are opened before it and closed
  // after it, and a backend that has exited can no longer be read from /proc.
  let before: CpuSnapshot | undefined;
  let after: CpuSnapshot | undefined;
  const hooks = {
    onLoadStart: () => {
      before = takeCpuSnapshot(context.api.process.pid, config.databaseName);
      sampler.start();
    },
    onLoadEnd: () => {
      after = takeCpuSnapshot(context.api.process.pid, config.databaseName);
    },
  };
  const options = { workload, concurrency, transfers, timeoutMs: config.runTimeoutMs, hooks };
  let result: LoadResult;
  let states: ConnectionStates;
  try {
    if (mode === 'api')
      result = await runHttpLoad({ ...options, baseUrl: context.api.baseUrl, fixture: context.apiFixture });
    else result = await runSqlLoad({ ...options, databaseUrl: context.databaseUrl, fixture: context.sqlFixture });
  } finally {
    states = await sampler.stop();
  }
  if (before === undefined || after === undefined) throw new Error('load hooks did not run');
  const spent = cpuSpentBetween(before, after);
  const perTransfer = (cpuMs: number) => (result.transfersCreated > 0 ? cpuMs / result.transfersCreated : Number.NaN);
  return summarizeRun(
    result,
    {
      apiNode: perTransfer(spent.apiNodeMs),
      postgres: perTransfer(spent.postgresMs),
      benchClient: perTransfer(spent.benchClientMs),
    },
    states,
  );
}

function describeRun(label: string, run: RunSummary): string {
  const errors = run.errorCount === 0 ? '' : ` errors=${run.errorCount} ${JSON.stringify(run.errors)}`;
  return (
    `${label}: ${run.transfersPerSecond.toFixed(0)} transfers/s, p50 ${run.p50LatencyMs.toFixed(2)} ms, p99 ` +
    `${run.p99LatencyMs.toFixed(2)} ms${errors}${run.timedOut ? ' TIMED OUT' : ''}`
  );
}

async function verify(context: BenchContext, after: string): Promise<void> {
  for (const [label, tenantId] of [
    [`API tenant after ${after}`, context.apiFixture.tenantId],
    [`SQL tenant after ${after}`, context.sqlFixture.tenantId],
  ] as const) {
    const check = await checkBooks(context.monitor, label, tenantId);
    context.checks.push(check);
    // A failed check does not stop the bench: the report shows it, and the exit status is 1.
    context.log(describeCheck(check));
  }
}

/** Unmeasured runs of each mode: single transfers once, and each batch size before its first cell. */
async function warmUp(context: BenchContext, workload: WorkloadName): Promise<void> {
  const { config } = context;
  const batch = isBatchWorkload(workload);
  const transfers = batch ? config.batchWarmupTransfers : config.warmupTransfers;
  if (transfers === 0) return;
  const concurrency = Math.max(...(batch ? config.batchConcurrencies : config.concurrencies));
  for (const mode of modesOf(context, workload)) {
    context.log(
      describeRun(
        `warm-up ${workload} ${mode} (not reported)`,
        await measureRun(context, workload, concurrency, mode, transfers),
      ),
    );
  }
}

async function measureAll(context: BenchContext): Promise<Cell[]> {
  const { config } = context;
  const cells: Cell[] = [];
  let singleWarmedUp = false;
  for (const workload of config.workloads) {
    const batch = isBatchWorkload(workload);
    if (batch || !singleWarmedUp) await warmUp(context, batch ? workload : 'uncontended');
    singleWarmedUp ||= !batch;
    const transfers = batch ? config.batchTransfersPerRun : config.transfersPerRun;
    for (const concurrency of batch ? config.batchConcurrencies : config.concurrencies) {
      const modes = modesOf(context, workload);
      const runs = new Map<Mode, RunSummary[]>(modes.map((mode) => [mode, []]));
      for (let run = 0; run < config.runCount; run++) {
        // Alternate the order of the modes, so drift in machine noise hits all modes alike.
        const order = run % 2 === 0 ? modes : [...modes].reverse();
        for (const mode of order) {
          const summary = await measureRun(context, workload, concurrency, mode, transfers);
          runs.get(mode)!.push(summary);
          context.log(describeRun(`${workload} c=${concurrency} ${mode} run ${run + 1}/${config.runCount}`, summary));
        }
      }
      for (const mode of modes)
        cells.push({
          workload,
          concurrency,
          mode,
          transfersPerRequest: TRANSFERS_PER_REQUEST[workload],
          summary: summarizeCell(runs.get(mode)!),
        });
    }
    await verify(context, `${workload} workload`);
  }
  return cells;
}

export interface PostingResults {
  cells: Cell[];
  checks: BooksCheck[];
  /** Single uncontended transfers at the highest concurrency through each extra API_PROCESSES value. */
  processCells: ProcessCell[];
}

function startPostingApi(config: BenchConfig, databaseUrl: string, operatorToken: string, processes: number) {
  return freePort().then((port) =>
    startApp({
      app: 'api',
      databaseUrl,
      port,
      adminToken: operatorToken,
      poolSize: config.apiPoolSize,
      nodeArgs: config.apiNodeArgs,
      settings: { API_PROCESSES: String(processes) },
    }),
  );
}

/** The API started again with each extra API_PROCESSES value, measured on the same tenants. */
async function measureProcessCounts(context: BenchContext, operatorToken: string): Promise<ProcessCell[]> {
  const { config, log } = context;
  const concurrency = Math.max(...config.concurrencies);
  const cells: ProcessCell[] = [];
  for (const processes of config.extraApiProcesses) {
    await context.api.process.stop();
    context.api = await startPostingApi(config, context.databaseUrl, operatorToken, processes);
    log(`API started again with API_PROCESSES=${processes} (pid ${context.api.process.pid})`);
    if (config.warmupTransfers > 0)
      await measureRun(context, 'uncontended', concurrency, 'api', config.warmupTransfers);
    const runs: RunSummary[] = [];
    for (let run = 0; run < config.runCount; run++) {
      runs.push(await measureRun(context, 'uncontended', concurrency, 'api', config.transfersPerRun));
      log(
        describeRun(`uncontended c=${concurrency} api x${processes} run ${run + 1}/${config.runCount}`, runs.at(-1)!),
      );
    }
    cells.push({ apiProcesses: processes, concurrency, summary: summarizeCell(runs) });
  }
  await verify(context, 'the process counts');
  return cells;
}

/**
 * Recreates the posting database, starts the API on it, sets up both tenants, measures every
 * configured workload in both modes, and drops the database (unless BENCH_KEEP_DATABASES).
 */
export async function runPostingSuite(config: BenchConfig, log: BenchLog): Promise<PostingResults> {
  const databaseName = config.databaseName;
  const databaseUrl = await recreateDatabase(config.adminDatabaseUrl, databaseName);
  const monitor = benchPool(databaseUrl, 2, 'ledger-bench-monitor');
  // Whatever ends this process (timeout, an exception), the API child goes with it (built-process.ts).
  let api: AppProcess | undefined;
  let peers: Peers | undefined;
  try {
    peers = config.peers ? await setUpPeers(config, log) : { databases: {}, scriptsDirectory: '' };
    const peerNames = Object.keys(peers.databases);
    if (peerNames.length > 0) log(`peers loaded beside the API: ${peerNames.join(', ')}`);
    const operatorToken = `bench-operator-${randomBytes(12).toString('hex')}`;
    api = await startPostingApi(config, databaseUrl, operatorToken, config.apiProcesses);
    log(`API started (pid ${api.process.pid}) at ${api.baseUrl} on database ${databaseName}`);
    const setupStartedMs = Date.now();
    const setupHttp = new HttpClient(api.baseUrl, config.setupConcurrency);
    const apiFixture = await setupApiFixture(setupHttp, config, operatorToken);
    const sqlFixture = await setupSqlFixture(setupHttp, monitor, config, operatorToken);
    setupHttp.close();
    log(
      `setup: 2 tenants x ${config.walletCount} funded wallets in ` +
        `${((Date.now() - setupStartedMs) / 1000).toFixed(1)} s`,
    );
    const context: BenchContext = {
      config,
      log,
      databaseUrl,
      api,
      monitor,
      apiFixture,
      sqlFixture,
      peers,
      checks: [],
    };
    await verify(context, 'setup');
    const cells = await measureAll(context);
    const processCells = await measureProcessCounts(context, operatorToken).finally(() => (api = context.api));
    return { cells, checks: context.checks, processCells };
  } catch (error) {
    if (api !== undefined) console.error(`[bench] last API output:\n${api.process.tail()}`);
    throw error;
  } finally {
    await api?.process.stop();
    if (peers !== undefined && peers.scriptsDirectory !== '') await tearDownPeers(peers, config);
    await monitor.end().catch(() => undefined);
    if (!config.keepDatabases) await dropDatabase(config.adminDatabaseUrl, databaseName);
  }
}
