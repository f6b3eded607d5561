// `npm run bench`: posting throughput and latency of the API against plain SQL doing the minimum a
// ledger must do, on an uncontended, a hot-account and two batch workloads. See test/bench/README.md.
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import pg from 'pg';
import { ApiProcess, databaseUrlFor, freePort, recreateDatabase } from './api-process';
import { type BenchConfig, describeConfig, loadBenchConfig } from './bench-config';
import { type ApiFixture, setupApiFixture, setupSqlFixture } from './bench-setup';
import { type BooksCheck, checkBooks, describeCheck } from './checks';
import { type CpuSnapshot, cpuSpentBetween, takeCpuSnapshot } from './cpu-usage';
import { HttpClient } from './http-client';
import { runHttpLoad } from './http-load';
import type { LoadResult } from './load-loop';
import { ActivitySampler, type ConnectionStates } from './pg-activity';
import { type BenchReport, type Cell, renderMarkdown, writeReport } from './report';
import { SQL_APPLICATION_NAME, runSqlLoad } from './sql-load';
import { type RunSummary, summarizeCell, summarizeRun } from './stats';
import { type Fixture, MODES, type Mode, TRANSFERS_PER_REQUEST, type WorkloadName, isBatchWorkload } from './workloads';

/** Which pg_stat_activity rows belong to a mode: the API's own pool calls itself 'ledger'. */
const APPLICATION_NAMES: Record<Mode, string> = { api: 'ledger', sql: SQL_APPLICATION_NAME };

interface BenchContext {
  config: BenchConfig;
  databaseUrl: string;
  api: ApiProcess;
  /** Checks, CHECKPOINT and the activity sampler: never used by a measured transfer. */
  monitor: pg.Pool;
  apiFixture: ApiFixture;
  sqlFixture: Fixture;
  checks: BooksCheck[];
}

function log(message: string): void {
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

async function measureRun(context: BenchContext, workload: WorkloadName, concurrency: number, mode: Mode, transfers: number): Promise<RunSummary> {
  const { config } = context;
  // Every run starts right after a checkpoint, so no run pays for another run's dirty pages.
  await context.monitor.query('CHECKPOINT');
  const sampler = new ActivitySampler(context.monitor, APPLICATION_NAMES[mode]);
  // Snapshots around the timed loop only: the SQL mode's connections are opened before it and closed
  // after it, and a backend that has exited can no longer be read from /proc.
  let before: CpuSnapshot | undefined;
  let after: CpuSnapshot | undefined;
  const hooks = {
    onLoadStart: () => {
      before = takeCpuSnapshot(context.api.pid, config.databaseName);
      sampler.start();
    },
    onLoadEnd: () => {
      after = takeCpuSnapshot(context.api.pid, config.databaseName);
    },
  };
  const options = { workload, concurrency, transfers, timeoutMs: config.runTimeoutMs, hooks };
  let result: LoadResult;
  let states: ConnectionStates;
  try {
    if (mode === 'api') result = await runHttpLoad({ ...options, baseUrl: context.api.baseUrl, fixture: context.apiFixture });
    else result = await runSqlLoad({ ...options, databaseUrl: context.databaseUrl, fixture: context.sqlFixture });
  } finally {
    states = await sampler.stop();
  }
  if (before === undefined || after === undefined) throw new Error('load hooks did not run');
  const spent = cpuSpentBetween(before, after);
  const perTransfer = (cpuMs: number) => (result.transfersCreated > 0 ? cpuMs / result.transfersCreated : Number.NaN);
  return summarizeRun(
    result,
    { apiNode: perTransfer(spent.apiNodeMs), postgres: perTransfer(spent.postgresMs), benchClient: perTransfer(spent.benchClientMs) },
    states,
  );
}

function describeRun(label: string, run: RunSummary): string {
  const errors = run.errorCount === 0 ? '' : ` errors=${run.errorCount} ${JSON.stringify(run.errors)}`;
  return `${label}: ${run.transfersPerSecond.toFixed(0)} transfers/s, p50 ${run.p50LatencyMs.toFixed(2)} ms, p99 ${run.p99LatencyMs.toFixed(2)} ms${errors}${run.timedOut ? ' TIMED OUT' : ''}`;
}

async function verify(context: BenchContext, after: string): Promise<void> {
  for (const [label, tenantId] of [
    [`API tenant after ${after}`, context.apiFixture.tenantId],
    [`SQL tenant after ${after}`, context.sqlFixture.tenantId],
  ] as const) {
    const check = await checkBooks(context.monitor, label, tenantId);
    context.checks.push(check);
    // A failed check does not stop the bench: the report shows it, and the exit status is 1.
    log(describeCheck(check));
  }
}

/** Unmeasured runs of each mode: single transfers once, and each batch size before its first cell. */
async function warmUp(context: BenchContext, workload: WorkloadName): Promise<void> {
  const { config } = context;
  const batch = isBatchWorkload(workload);
  const transfers = batch ? config.batchWarmupTransfers : config.warmupTransfers;
  if (transfers === 0) return;
  const concurrency = Math.max(...(batch ? config.batchConcurrencies : config.concurrencies));
  for (const mode of MODES) {
    log(describeRun(`warm-up ${workload} ${mode} (not reported)`, await measureRun(context, workload, concurrency, mode, transfers)));
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
      const runs: Record<Mode, RunSummary[]> = { api: [], sql: [] };
      for (let run = 0; run < config.runCount; run++) {
        // Alternate the order of the modes, so drift in machine noise hits all modes alike.
        const order = run % 2 === 0 ? MODES : [...MODES].reverse();
        for (const mode of order) {
          const summary = await measureRun(context, workload, concurrency, mode, transfers);
          runs[mode].push(summary);
          log(describeRun(`${workload} c=${concurrency} ${mode} run ${run + 1}/${config.runCount}`, summary));
        }
      }
      for (const mode of MODES) cells.push({ workload, concurrency, mode, transfersPerRequest: TRANSFERS_PER_REQUEST[workload], summary: summarizeCell(runs[mode]) });
    }
    await verify(context, `${workload} workload`);
  }
  return cells;
}

async function postgresVersion(pool: pg.Pool): Promise<string> {
  const { rows } = await pool.query<{ version: string }>('SELECT version()');
  return rows[0]!.version.split(' on ')[0]!;
}

/** Server settings that move these numbers, recorded with them. */
async function postgresSettings(pool: pg.Pool): Promise<Record<string, string>> {
  const names = ['synchronous_commit', 'fsync', 'shared_buffers', 'autovacuum', 'max_connections'];
  const { rows } = await pool.query<{ name: string; setting: string }>(
    `SELECT name, current_setting(name) AS setting FROM unnest($1::text[]) AS name`,
    [names],
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.setting]));
}

async function main(): Promise<void> {
  const startedAtMs = Date.now();
  // Before the bench adds its own load: anything else running on the machine skews every figure.
  const loadAverageAtStart = loadavg()[0]!;
  const config = loadBenchConfig();
  log(`settings: ${JSON.stringify(describeConfig(config))}; 1-minute load average before start ${loadAverageAtStart.toFixed(2)}`);
  let api: ApiProcess | undefined;
  // Whatever ends this process (timeout, an exception, Ctrl-C), the API child goes with it.
  process.once('exit', () => api?.killNow());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  const overall = setTimeout(() => {
    console.error(`[bench] aborted: still running after ${config.benchTimeoutMs / 1000} s (BENCH_TIMEOUT_S)`);
    process.exit(1);
  }, config.benchTimeoutMs);

  const databaseUrl = databaseUrlFor(config.adminDatabaseUrl, config.databaseName);
  const monitor = new pg.Pool({ connectionString: databaseUrl, max: 2, application_name: 'ledger-bench-monitor' });
  try {
    await recreateDatabase(config.adminDatabaseUrl, config.databaseName);
    const operatorToken = `bench-operator-${randomBytes(12).toString('hex')}`;
    api = await ApiProcess.start({ databaseUrl, port: await freePort(), adminToken: operatorToken, poolSize: config.apiPoolSize, nodeArgs: config.apiNodeArgs });
    log(`API started (pid ${api.pid}) at ${api.baseUrl} on database ${config.databaseName}`);

    const setupStartedMs = Date.now();
    const setupHttp = new HttpClient(api.baseUrl, config.setupConcurrency);
    const apiFixture = await setupApiFixture(setupHttp, config, operatorToken);
    const sqlFixture = await setupSqlFixture(setupHttp, monitor, config, operatorToken);
    setupHttp.close();
    log(`setup: 2 tenants x ${config.walletCount} funded wallets in ${((Date.now() - setupStartedMs) / 1000).toFixed(1)} s`);

    const context: BenchContext = { config, databaseUrl, api, monitor, apiFixture, sqlFixture, checks: [] };
    await verify(context, 'setup');
    const cells = await measureAll(context);

    const report: BenchReport = {
      startedAt: new Date(startedAtMs).toISOString(),
      durationS: (Date.now() - startedAtMs) / 1000,
      settings: describeConfig(config),
      machine: { cpus: cpus().length, loadAverageAtStart, node: process.version, postgres: await postgresVersion(monitor), postgresSettings: await postgresSettings(monitor) },
      cells,
      checks: context.checks,
    };
    const markdown = renderMarkdown(report, config);
    const paths = await writeReport(config.resultsDirectory, report, markdown);
    console.log(`\n${markdown}`);
    log(`wrote ${paths.markdownPath} and ${paths.jsonPath}`);
    const failed = context.checks.filter((check) => !check.ok);
    if (failed.length > 0) {
      console.error(`[bench] ${failed.length} books check(s) FAILED:\n${failed.map(describeCheck).join('\n')}`);
      process.exitCode = 1;
    }
  } catch (error) {
    if (api !== undefined) console.error(`[bench] last API output:\n${api.tail()}`);
    throw error;
  } finally {
    clearTimeout(overall);
    await api?.stop();
    await monitor.end().catch(() => undefined);
  }
}

main().catch((error: unknown) => {
  console.error('[bench] failed:', error);
  process.exit(1);
});
