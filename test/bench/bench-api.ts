// One API process on a database of its own with the posting suite's tenant, for the benches that run
// apart from the report (holds and their resolutions, reads).
import { randomBytes, randomUUID } from 'node:crypto';
import { freePort } from '../support/free-port';
import { type AppProcess, startApp } from './app-process';
import { type BenchConfig, loadBenchConfig } from './bench-config';
import { dropDatabase, recreateDatabase } from './bench-database';
import { type ApiFixture, setupApiFixture } from './bench-setup';
import { type PhaseRun, measureClosedLoop } from './closed-loop';
import { HttpClient } from './http-client';

export interface BenchApi {
  config: BenchConfig;
  /** The highest of BENCH_CONCURRENCIES: every phase's number of closed-loop clients. */
  clients: number;
  api: AppProcess;
  databaseUrl: string;
  http: HttpClient;
  fixture: ApiFixture;
  /** POSTs `body` as the fixture's poster under a new Idempotency-Key; throws unless it is answered 201. */
  post(path: string, body: unknown): Promise<{ id: string }>;
  /** The clients run `operation` for `durationS` (see measureClosedLoop); the API's CPU per operation. */
  measure(operation: () => Promise<boolean>, durationS: number): Promise<PhaseRun>;
}

/**
 * Starts the API on `<BENCH_DATABASE>_<databaseSuffix>`, made anew, with the posting suite's tenant; runs
 * `work`; then stops the API and drops the database (BENCH_KEEP_DATABASES keeps it).
 */
export async function withBenchApi(databaseSuffix: string, work: (bench: BenchApi) => Promise<void>): Promise<void> {
  const config = loadBenchConfig();
  const clients = Math.max(...config.concurrencies);
  const operatorToken = `bench-operator-${randomBytes(12).toString('hex')}`;
  const databaseName = `${config.databaseName}_${databaseSuffix}`;
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
    const post = (path: string, body: unknown) =>
      http.expectJson<{ id: string }>(
        { method: 'POST', path, bearer: fixture.posterKey, idempotencyKey: randomUUID(), body },
        201,
      );
    const measure = (operation: () => Promise<boolean>, durationS: number) =>
      measureClosedLoop(api.process.pid, clients, durationS, operation);
    await work({ config, clients, api, databaseUrl, http, fixture, post, measure });
  } finally {
    await api.process.stop();
    if (!config.keepDatabases) await dropDatabase(config.adminDatabaseUrl, databaseName);
  }
}
