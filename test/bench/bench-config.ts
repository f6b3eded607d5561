import { resolve, sep } from 'node:path';
import { assertDatabaseName } from './bench-database';
import { WORKLOADS, type WorkloadName } from './workloads';

/** The parts of `npm run bench`, in the order they run; BENCH_SUITES picks some. */
export const SUITES = ['posting', 'import', 'reconcile'] as const;
export type SuiteName = (typeof SUITES)[number];

/** The checkout: this file runs from test/bench (tests) or dist/test/bench (`npm run bench`). */
const REPOSITORY_ROOT = __dirname.includes(`${sep}dist${sep}`)
  ? resolve(__dirname, '..', '..', '..')
  : resolve(__dirname, '..', '..');

// Bench settings, read once from the environment so a short run (BENCH_RUNS=1 BENCH_TRANSFERS=500)
// needs no code change. Every value is bounded: a typo must not start an hour-long run.

export interface BenchConfig {
  suites: SuiteName[];
  /** Server that holds the bench databases; each is created empty and dropped after its suite. */
  adminDatabaseUrl: string;
  /** The posting suite's database; the import and reconcile suites add `_import` and `_reconcile`. */
  databaseName: string;
  keepDatabases: boolean;
  /** Lines of the import suite's files: issue 4 asks for a 1,000,000-line CSV and a 100,000-entry camt.053. */
  importLines: { csv: number; camt053: number };
  /** Ledger entries and statement lines of the reconcile suite. */
  reconcileLines: number;
  walletCount: number;
  /** Measured runs per (workload, concurrency, mode), in every suite; the report shows their median. */
  runCount: number;
  /** Single-transfer workloads (uncontended, hot): transfers per run, warm-up, clients. */
  transfersPerRun: number;
  /** Unmeasured transfers before the first measured run of each mode (JIT, plan caches, pools). */
  warmupTransfers: number;
  concurrencies: number[];
  /** Batch workloads: transfers per run (rounded up to whole batches), warm-up, clients. */
  batchTransfersPerRun: number;
  batchWarmupTransfers: number;
  batchConcurrencies: number[];
  /** The fresh database's first seconds, measured in windows of batches right after the setup (0: skipped). */
  freshSeconds: number;
  freshWindowTransfers: number;
  /** After the cells: the API left idle this long, then a burst of single transfers (0: skipped). */
  pauseSeconds: number;
  pauseRounds: number;
  workloads: WorkloadName[];
  /** The API's pg pool: at least the highest concurrency, so the pool is not what is measured. */
  apiPoolSize: number;
  /** A run stops issuing transfers after this long, so a pathological run still ends. */
  runTimeoutMs: number;
  /** The whole bench is aborted (child killed, exit 1) after this long. */
  benchTimeoutMs: number;
  /** Opening balance of every wallet, minor units: far above what the transfers can move. */
  walletFundingMinor: bigint;
  setupConcurrency: number;
  resultsDirectory: string;
  /** Extra node flags for the API child, e.g. --prof to see where its CPU goes (diagnostics only). */
  apiNodeArgs: string[];
  /** The node binary the API child runs on (BENCH_API_NODE), to compare Node versions with the same client. */
  apiNode: string;
  /** API_PROCESSES of the API child: its CPU figure counts the supervisor and every forked process. */
  apiProcesses: number;
  /**
   * More API_PROCESSES values to measure afterwards (BENCH_API_PROCESSES=1,2,3: the suite runs with 1, then
   * single uncontended transfers at the highest concurrency with 2 and with 3), to show a process boundary's cost.
   */
  extraApiProcesses: number[];
  /** The API child's LEDGER_ANALYZE_CHECK_SECONDS (0: it never analyzes, to see what that costs). */
  apiAnalyzeCheckSeconds: number;
  /** Where the shared baselines (bench/plain-sql-baselines.sql) and peers (peers/pgledger) are read from. */
  sharedDirectory: string;
  /** Measure plain SQL and pgledger through pgbench beside the API (when pgbench and the files are there). */
  peers: boolean;
  /** Seconds of each run of the API driven by wrk beside the Node-driven one (0: no wrk rows). */
  wrkSeconds: number;
}

function integerFromEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name}=${raw}: expected an integer between ${min} and ${max}`);
  }
  return value;
}

function concurrenciesFromEnv(name: string, fallback: string): number[] {
  const raw = process.env[name] ?? fallback;
  const values = raw.split(',').map((part) => Number(part.trim()));
  if (
    values.length === 0 ||
    values.length > 8 ||
    values.some((value) => !Number.isInteger(value) || value < 1 || value > 64)
  ) {
    throw new Error(`${name}=${raw}: expected 1 to 8 comma-separated integers between 1 and 64`);
  }
  return values;
}

/** A comma-separated subset of `allowed` from the environment, in `allowed`'s order; all of it when unset. */
function subsetFromEnv<Name extends string>(name: string, allowed: readonly Name[]): Name[] {
  const raw = process.env[name] ?? allowed.join(',');
  const names = raw.split(',').map((part) => part.trim());
  const known = (value: string): value is Name => (allowed as readonly string[]).includes(value);
  if (names.length === 0 || !names.every(known))
    throw new Error(`${name}=${raw}: expected a subset of ${allowed.join(',')}`);
  return allowed.filter((value) => names.includes(value));
}

export function loadBenchConfig(): BenchConfig {
  const concurrencies = concurrenciesFromEnv('BENCH_CONCURRENCIES', '16,32');
  const batchConcurrencies = concurrenciesFromEnv('BENCH_BATCH_CONCURRENCIES', '4');
  const databaseName = process.env.BENCH_DATABASE ?? 'ledger_bench';
  const apiProcessCounts = concurrenciesFromEnv('BENCH_API_PROCESSES', '1');
  // With the longest suffix, `_reconcile`, it must still be an identifier of at most 63 characters.
  assertDatabaseName(`${databaseName}_reconcile`, 'BENCH_DATABASE');
  return {
    suites: subsetFromEnv('BENCH_SUITES', SUITES),
    adminDatabaseUrl: process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
    databaseName,
    keepDatabases: process.env.BENCH_KEEP_DATABASES === '1',
    importLines: {
      csv: integerFromEnv('BENCH_IMPORT_CSV_LINES', 1_000_000, 100, 5_000_000),
      camt053: integerFromEnv('BENCH_IMPORT_CAMT_LINES', 100_000, 100, 5_000_000),
    },
    reconcileLines: integerFromEnv('BENCH_RECONCILE_LINES', 100_000, 100, 5_000_000),
    walletCount: integerFromEnv('BENCH_WALLETS', 10_000, 2, 100_000),
    runCount: integerFromEnv('BENCH_RUNS', 5, 1, 15),
    transfersPerRun: integerFromEnv('BENCH_TRANSFERS', 3_000, 100, 200_000),
    warmupTransfers: integerFromEnv('BENCH_WARMUP_TRANSFERS', 1_000, 0, 50_000),
    concurrencies,
    batchTransfersPerRun: integerFromEnv('BENCH_BATCH_TRANSFERS', 20_000, 1_000, 1_000_000),
    batchWarmupTransfers: integerFromEnv('BENCH_BATCH_WARMUP_TRANSFERS', 4_000, 0, 100_000),
    batchConcurrencies,
    freshSeconds: integerFromEnv('BENCH_FRESH_SECONDS', 60, 0, 600),
    freshWindowTransfers: integerFromEnv('BENCH_FRESH_WINDOW_TRANSFERS', 5_000, 100, 100_000),
    pauseSeconds: integerFromEnv('BENCH_PAUSE_SECONDS', 15, 0, 600),
    pauseRounds: integerFromEnv('BENCH_PAUSE_ROUNDS', 3, 1, 20),
    workloads: subsetFromEnv('BENCH_WORKLOADS', WORKLOADS),
    apiPoolSize: integerFromEnv('BENCH_API_POOL_SIZE', Math.max(...concurrencies, ...batchConcurrencies), 1, 90),
    runTimeoutMs: integerFromEnv('BENCH_RUN_TIMEOUT_S', 60, 1, 3_600) * 1000,
    benchTimeoutMs: integerFromEnv('BENCH_TIMEOUT_S', 2_400, 10, 14_400) * 1000,
    walletFundingMinor: 10_000_000n,
    setupConcurrency: integerFromEnv('BENCH_SETUP_CONCURRENCY', 16, 1, 64),
    resultsDirectory: process.env.BENCH_RESULTS_DIR ?? 'bench-results',
    apiNodeArgs: (process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== ''),
    apiNode: process.env.BENCH_API_NODE ?? process.execPath,
    apiProcesses: apiProcessCounts[0]!,
    extraApiProcesses: apiProcessCounts.slice(1),
    apiAnalyzeCheckSeconds: integerFromEnv('BENCH_API_ANALYZE_CHECK_SECONDS', 1, 0, 3_600),
    sharedDirectory: process.env.BENCH_SHARED_DIR ?? resolve(REPOSITORY_ROOT, '..', 'shared'),
    peers: process.env.BENCH_PEERS !== '0',
    wrkSeconds: integerFromEnv('BENCH_WRK_SECONDS', 3, 0, 600),
  };
}

/** The settings as printed at the start and stored in the JSON results. */
export function describeConfig(config: BenchConfig): Record<string, string | number> {
  return {
    suites: config.suites.join(','),
    database: config.databaseName,
    importCsvLines: config.importLines.csv,
    importCamtLines: config.importLines.camt053,
    reconcileLines: config.reconcileLines,
    wallets: config.walletCount,
    runsPerCell: config.runCount,
    transfersPerRun: config.transfersPerRun,
    warmupTransfers: config.warmupTransfers,
    concurrencies: config.concurrencies.join(','),
    batchTransfersPerRun: config.batchTransfersPerRun,
    batchWarmupTransfers: config.batchWarmupTransfers,
    batchConcurrencies: config.batchConcurrencies.join(','),
    freshSeconds: config.freshSeconds,
    freshWindowTransfers: config.freshWindowTransfers,
    pauseSeconds: config.pauseSeconds,
    pauseRounds: config.pauseRounds,
    workloads: config.workloads.join(','),
    apiPoolSize: config.apiPoolSize,
    runTimeoutS: config.runTimeoutMs / 1000,
    benchTimeoutS: config.benchTimeoutMs / 1000,
    setupConcurrency: config.setupConcurrency,
    apiProcesses: [config.apiProcesses, ...config.extraApiProcesses].join(','),
    apiAnalyzeCheckSeconds: config.apiAnalyzeCheckSeconds,
    peers: config.peers ? config.sharedDirectory : 'off',
    wrkSeconds: config.wrkSeconds,
  };
}
