// The posting suite of `npm run bench`: throughput and latency of the API against plain SQL doing the
// minimum a ledger must do, on an uncontended, a hot-account and two batch workloads. See README.md.
import { randomBytes } from 'node:crypto';
import { freePort } from '../support/free-port';
import { measureAfterPauses } from './after-pause';
import { type AppProcess, startApp } from './app-process';
import type { BenchConfig } from './bench-config';
import { benchPool, dropDatabase, recreateDatabase } from './bench-database';
import type { BenchLog } from './bench-log';
import { setupApiFixture, setupSqlFixture } from './bench-setup';
import { type BooksCheck, checkBooks, describeCheck } from './checks';
import { HttpClient } from './http-client';
import { type Peers, setUpPeers, tearDownPeers } from './pgbench-peers';
import { type Cell, FRESH_WORKLOAD, type FreshWindow, type PauseRound, type ProcessCell } from './posting-report';
import { type BenchContext, describeRun, measureRun, modesOf } from './posting-runs';
import { type RunSummary, summarizeCell } from './stats';
import { type Mode, TRANSFERS_PER_REQUEST, type WorkloadName, isBatchWorkload } from './workloads';
import { type WrkDriver, setUpWrk, tearDownWrk } from './wrk-load';

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

/**
 * The first `freshSeconds` of the new database, as a new deployment meets them: batches of 100 through
 * the API right after the setup, in windows of `freshWindowTransfers`, and nothing analyzed by the bench
 * (what the tables' statistics are is up to the API, and to autovacuum where it runs).
 */
async function measureFreshDatabase(context: BenchContext): Promise<FreshWindow[]> {
  const { config } = context;
  const concurrency = Math.max(...config.batchConcurrencies);
  const windows: FreshWindow[] = [];
  const firstStartedMs = Date.now();
  while (Date.now() - firstStartedMs < config.freshSeconds * 1000) {
    const startedAtS = (Date.now() - firstStartedMs) / 1000;
    const summary = await measureRun(
      context,
      FRESH_WORKLOAD,
      concurrency,
      'api',
      config.freshWindowTransfers,
      'as-they-are',
    );
    windows.push({ startedAtS, summary });
    context.log(describeRun(`fresh database, window at ${startedAtS.toFixed(1)} s: ${FRESH_WORKLOAD} api`, summary));
  }
  return windows;
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
  /** The fresh database's first BENCH_FRESH_SECONDS, window by window (empty when 0). */
  freshWindows: FreshWindow[];
  /** Bursts after the API was left idle (empty when BENCH_PAUSE_SECONDS=0 or without uncontended transfers). */
  pauseRounds: PauseRound[];
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
      node: config.apiNode,
      settings: {
        API_PROCESSES: String(processes),
        LEDGER_ANALYZE_CHECK_SECONDS: String(config.apiAnalyzeCheckSeconds),
      },
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
  let wrk: WrkDriver | undefined;
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
    if (config.wrkSeconds > 0) wrk = await setUpWrk(apiFixture, log);
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
      wrk,
      checks: [],
    };
    await verify(context, 'setup');
    const freshWindows = await measureFreshDatabase(context);
    if (freshWindows.length > 0) await verify(context, 'the fresh-database windows');
    const cells = await measureAll(context);
    const pauseRounds = config.workloads.includes('uncontended') ? await measureAfterPauses(context) : [];
    const processCells = await measureProcessCounts(context, operatorToken).finally(() => (api = context.api));
    return { cells, freshWindows, pauseRounds, checks: context.checks, processCells };
  } catch (error) {
    if (api !== undefined) console.error(`[bench] last API output:\n${api.process.tail()}`);
    throw error;
  } finally {
    await api?.process.stop();
    if (peers !== undefined && peers.scriptsDirectory !== '') await tearDownPeers(peers, config);
    await tearDownWrk(wrk);
    await monitor.end().catch(() => undefined);
    if (!config.keepDatabases) await dropDatabase(config.adminDatabaseUrl, databaseName);
  }
}
