import { randomBytes } from 'node:crypto';
import { assertDatabaseName } from './bench-database';

// Soak settings, read once from the environment. `npm test` runs the soak briefly (its spec passes a
// short default), `npm run soak` for ten minutes; SOAK_SECONDS overrides either.

export interface SoakConfig {
  seconds: number;
  /** Concurrent closed-loop clients, each picking its next operation at random from the mix. */
  clients: number;
  adminDatabaseUrl: string;
  databaseName: string;
  keepDatabase: boolean;
  resultsDirectory: string;
  /** The worker's reconciliation schedule (node-cron, with seconds): often, so it races the API's runs. */
  reconcileCron: string;
  /** The API's pool: at least the clients, plus room for its own reads (per API process). */
  apiPoolSize: number;
  /** The API's API_PROCESSES: that many processes serve its port. */
  apiProcesses: number;
  /** Worker processes sharing the jobs (reconciliation, hold expiry, relay, webhooks). */
  workers: number;
}

function integerFromEnv(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`${name}=${raw}: expected an integer between ${min} and ${max}`);
  return value;
}

export function loadSoakConfig(defaultSeconds: number): SoakConfig {
  // A name of its own per run: a soak may run while other tests or benches use the same server.
  const databaseName = process.env.SOAK_DATABASE ?? `ledger_soak_${randomBytes(4).toString('hex')}`;
  assertDatabaseName(databaseName, 'SOAK_DATABASE');
  const clients = integerFromEnv('SOAK_CLIENTS', 8, 1, 64);
  return {
    seconds: integerFromEnv('SOAK_SECONDS', defaultSeconds, 5, 24 * 3600),
    clients,
    adminDatabaseUrl: process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
    databaseName,
    keepDatabase: process.env.SOAK_KEEP_DATABASE === '1',
    resultsDirectory: process.env.SOAK_RESULTS_DIR ?? process.env.BENCH_RESULTS_DIR ?? 'bench-results',
    reconcileCron: process.env.SOAK_RECONCILE_CRON ?? '*/15 * * * * *',
    apiPoolSize: clients + 4,
    apiProcesses: integerFromEnv('SOAK_API_PROCESSES', 1, 1, 8),
    workers: integerFromEnv('SOAK_WORKERS', 1, 1, 8),
  };
}
