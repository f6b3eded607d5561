// One measured run of one mode of the posting suite (the API over HTTP, the bench's own SQL, or a peer
// through pgbench), with its CPU figures and connection states, and the context the suite's runs share.
import type pg from 'pg';
import type { AppProcess } from './app-process';
import type { BenchConfig } from './bench-config';
import type { BenchLog } from './bench-log';
import type { ApiFixture } from './bench-setup';
import type { BooksCheck } from './checks';
import { type CpuSnapshot, cpuSpentBetween, takeCpuSnapshot } from './cpu-usage';
import { runHttpLoad } from './http-load';
import type { LoadResult } from './load-loop';
import { ActivitySampler, type ConnectionStates } from './pg-activity';
import { type Peers, analyzePeer, peerMeasures, runPeer } from './pgbench-peers';
import { SQL_APPLICATION_NAME, runSqlLoad } from './sql-load';
import { type RunSummary, summarizeRun } from './stats';
import { type Fixture, MODES, type Mode, PEER_MODES, type PeerMode, type WorkloadName } from './workloads';
import { type WrkDriver, runWrkLoad } from './wrk-load';

/** Which pg_stat_activity rows belong to a mode: the API's own pool calls itself 'ledger'. */
const APPLICATION_NAMES: Record<'api' | 'sql' | 'wrk', string> = {
  api: 'ledger',
  sql: SQL_APPLICATION_NAME,
  wrk: 'ledger',
};

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

export interface BenchContext {
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
  /** Undefined when wrk is not installed or BENCH_WRK_SECONDS=0. */
  wrk: WrkDriver | undefined;
  checks: BooksCheck[];
}

/** The modes a workload is measured in: the API (by this process, and by wrk), the bench's own SQL, the peers. */
export function modesOf(context: BenchContext, workload: WorkloadName): Mode[] {
  const wrk: Mode[] = context.wrk === undefined ? [] : ['wrk'];
  return [...MODES, ...wrk, ...PEER_MODES.filter((mode) => peerMeasures(context.peers, mode, workload))];
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

/**
 * The server's WAL insert position: the WAL a run wrote is the distance from the position after its
 * CHECKPOINT to the one after its last transfer. It counts the whole server (a shared server's other
 * databases too), and the full-page images of the first change of each page after the checkpoint, as
 * every mode pays them.
 */
async function walPosition(monitor: pg.Pool): Promise<string> {
  const rows = await monitor.query<{ position: string }>('SELECT pg_current_wal_insert_lsn()::text AS position');
  return rows.rows[0]!.position;
}

async function walBytesSince(monitor: pg.Pool, position: string): Promise<number> {
  const rows = await monitor.query<{ bytes: number }>(
    'SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1::pg_lsn)::float8 AS bytes',
    [position],
  );
  return rows.rows[0]!.bytes;
}

async function measurePeerRun(
  context: BenchContext,
  workload: WorkloadName,
  concurrency: number,
  mode: PeerMode,
  transfers: number,
): Promise<RunSummary> {
  await context.monitor.query('CHECKPOINT');
  const walStart = await walPosition(context.monitor);
  const run = await runPeer(context.peers, mode, workload, concurrency, transfers, context.config.runTimeoutMs);
  const walBytes = await walBytesSince(context.monitor, walStart);
  const perTransfer = (cpuMs: number) =>
    run.result.transfersCreated > 0 ? cpuMs / run.result.transfersCreated : Number.NaN;
  return summarizeRun(
    run.result,
    { apiNode: Number.NaN, postgres: perTransfer(run.cpuMs.postgres), benchClient: perTransfer(run.cpuMs.benchClient) },
    perTransfer(walBytes),
    NOT_SAMPLED,
  );
}

/**
 * Every run starts with statistics of the tables as they are now (`statistics: 'as-they-are'` leaves
 * them to the API, for the fresh-database windows), then right after a checkpoint, so no run pays for
 * another run's dirty pages.
 */
export async function measureRun(
  context: BenchContext,
  workload: WorkloadName,
  concurrency: number,
  mode: Mode,
  transfers: number,
  statistics: 'refreshed' | 'as-they-are' = 'refreshed',
): Promise<RunSummary> {
  if (statistics === 'refreshed') await refreshStatistics(context, mode);
  if (isPeerMode(mode)) return measurePeerRun(context, workload, concurrency, mode, transfers);
  const { config } = context;
  await context.monitor.query('CHECKPOINT');
  const walStart = await walPosition(context.monitor);
  const sampler = new ActivitySampler(context.monitor, APPLICATION_NAMES[mode as keyof typeof APPLICATION_NAMES]);
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
  let wrkCpuMs: number | undefined;
  try {
    if (mode === 'api')
      result = await runHttpLoad({ ...options, baseUrl: context.api.baseUrl, fixture: context.apiFixture });
    else if (mode === 'wrk') {
      const run = await runWrkLoad({
        ...options,
        driver: context.wrk!,
        baseUrl: context.api.baseUrl,
        fixture: context.apiFixture,
        seconds: config.wrkSeconds,
      });
      result = run.result;
      wrkCpuMs = run.clientCpuMs;
    } else result = await runSqlLoad({ ...options, databaseUrl: context.databaseUrl, fixture: context.sqlFixture });
  } finally {
    states = await sampler.stop();
  }
  if (before === undefined || after === undefined) throw new Error('load hooks did not run');
  const walBytes = await walBytesSince(context.monitor, walStart);
  const spent = cpuSpentBetween(before, after);
  // The load generator's CPU: this process's, or wrk's own.
  const clientMs = wrkCpuMs ?? spent.benchClientMs;
  const perTransfer = (cpuMs: number) => (result.transfersCreated > 0 ? cpuMs / result.transfersCreated : Number.NaN);
  return summarizeRun(
    result,
    {
      apiNode: perTransfer(spent.apiNodeMs),
      postgres: perTransfer(spent.postgresMs),
      benchClient: perTransfer(clientMs),
    },
    perTransfer(walBytes),
    states,
  );
}

export function describeRun(label: string, run: RunSummary): string {
  const errors = run.errorCount === 0 ? '' : ` errors=${run.errorCount} ${JSON.stringify(run.errors)}`;
  return (
    `${label}: ${run.transfersPerSecond.toFixed(0)} transfers/s, p50 ${run.p50LatencyMs.toFixed(2)} ms, p99 ` +
    `${run.p99LatencyMs.toFixed(2)} ms${errors}${run.timedOut ? ' TIMED OUT' : ''}`
  );
}
