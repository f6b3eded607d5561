import { WORKLOADS, type WorkloadName } from './workloads';

// Bench settings, read once from the environment so a short run (BENCH_RUNS=1 BENCH_TRANSFERS=500)
// needs no code change. Every value is bounded: a typo must not start an hour-long run.

export interface BenchConfig {
  /** Server that holds the bench database; the bench database itself is dropped and recreated. */
  adminDatabaseUrl: string;
  databaseName: string;
  walletCount: number;
  /** Measured runs per (workload, concurrency, mode); the report shows their median. */
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
  if (values.length === 0 || values.length > 8 || values.some((value) => !Number.isInteger(value) || value < 1 || value > 64)) {
    throw new Error(`${name}=${raw}: expected 1 to 8 comma-separated integers between 1 and 64`);
  }
  return values;
}

function workloadsFromEnv(): WorkloadName[] {
  const raw = process.env.BENCH_WORKLOADS ?? WORKLOADS.join(',');
  const names = raw.split(',').map((part) => part.trim());
  const known = (name: string): name is WorkloadName => (WORKLOADS as readonly string[]).includes(name);
  if (names.length === 0 || !names.every(known)) throw new Error(`BENCH_WORKLOADS=${raw}: expected a subset of ${WORKLOADS.join(',')}`);
  return WORKLOADS.filter((name) => names.includes(name));
}

export function loadBenchConfig(): BenchConfig {
  const concurrencies = concurrenciesFromEnv('BENCH_CONCURRENCIES', '16,32');
  const batchConcurrencies = concurrenciesFromEnv('BENCH_BATCH_CONCURRENCIES', '4');
  const databaseName = process.env.BENCH_DATABASE ?? 'ledger_bench';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(databaseName)) throw new Error(`BENCH_DATABASE=${databaseName}: not a plain identifier`);
  return {
    adminDatabaseUrl: process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
    databaseName,
    walletCount: integerFromEnv('BENCH_WALLETS', 10_000, 2, 100_000),
    runCount: integerFromEnv('BENCH_RUNS', 3, 1, 15),
    transfersPerRun: integerFromEnv('BENCH_TRANSFERS', 3_000, 100, 200_000),
    warmupTransfers: integerFromEnv('BENCH_WARMUP_TRANSFERS', 1_000, 0, 50_000),
    concurrencies,
    batchTransfersPerRun: integerFromEnv('BENCH_BATCH_TRANSFERS', 20_000, 1_000, 1_000_000),
    batchWarmupTransfers: integerFromEnv('BENCH_BATCH_WARMUP_TRANSFERS', 4_000, 0, 100_000),
    batchConcurrencies,
    workloads: workloadsFromEnv(),
    apiPoolSize: integerFromEnv('BENCH_API_POOL_SIZE', Math.max(...concurrencies, ...batchConcurrencies), 1, 90),
    runTimeoutMs: integerFromEnv('BENCH_RUN_TIMEOUT_S', 60, 1, 3_600) * 1000,
    benchTimeoutMs: integerFromEnv('BENCH_TIMEOUT_S', 900, 10, 14_400) * 1000,
    walletFundingMinor: 10_000_000n,
    setupConcurrency: integerFromEnv('BENCH_SETUP_CONCURRENCY', 16, 1, 64),
    resultsDirectory: process.env.BENCH_RESULTS_DIR ?? 'bench-results',
    apiNodeArgs: (process.env.BENCH_API_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== ''),
  };
}

/** The settings as printed at the start and stored in the JSON results. */
export function describeConfig(config: BenchConfig): Record<string, string | number> {
  return {
    database: config.databaseName,
    wallets: config.walletCount,
    runsPerCell: config.runCount,
    transfersPerRun: config.transfersPerRun,
    warmupTransfers: config.warmupTransfers,
    concurrencies: config.concurrencies.join(','),
    batchTransfersPerRun: config.batchTransfersPerRun,
    batchWarmupTransfers: config.batchWarmupTransfers,
    batchConcurrencies: config.batchConcurrencies.join(','),
    workloads: config.workloads.join(','),
    apiPoolSize: config.apiPoolSize,
    runTimeoutS: config.runTimeoutMs / 1000,
    benchTimeoutS: config.benchTimeoutMs / 1000,
    setupConcurrency: config.setupConcurrency,
  };
}
