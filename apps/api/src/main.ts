import 'reflect-metadata';
import { resolve } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { type AppConfig, loadConfig, newOperatorToken, readOrCreateSecret, signingKey } from '@ledger/config';
import { openMigratedDatabase } from '@ledger/db';
// `npm start` runs the worker's jobs in this process too (embedded mode has one database connection).
import { JobsModule } from '@ledger/jobs';
import { type ApiProcessPlace, apiProcessPlace, isApiSupervisor, superviseApiProcesses } from './api-cluster';
import { createApiApp } from './create-api-app';
import { loadDemoDataOnce } from './demo/demo-data';
import { startDemoProvider } from './demo/demo-provider';

async function operatorToken(config: AppConfig): Promise<string | undefined> {
  if (config.adminToken !== undefined || config.databaseUrl !== undefined) return config.adminToken;
  return readOrCreateSecret(config.dataDir, 'admin-token', newOperatorToken);
}

const DEMO_UNKNOWN = 'unknown: the demo was loaded by another data directory';

/** The demo's API key and its provider's webhook endpoint: made on the first start, read from the data dir after. */
async function demoFacts(
  config: AppConfig,
  app: Parameters<typeof loadDemoDataOnce>[0],
): Promise<{ key: string; providerWebhookEndpoint: string } | undefined> {
  if (!config.demoData) return undefined;
  const demo = await loadDemoDataOnce(app, config.demoProviderPort);
  if (demo !== undefined) await readOrCreateSecret(config.dataDir, 'demo-admin-key', () => demo.adminKey);
  return {
    key: await readOrCreateSecret(config.dataDir, 'demo-api-key', () => demo?.posterKey ?? DEMO_UNKNOWN),
    providerWebhookEndpoint: await readOrCreateSecret(
      config.dataDir,
      'demo-provider-webhook-endpoint',
      () => demo?.providerWebhookEndpoint ?? DEMO_UNKNOWN,
    ),
  };
}

/**
 * Finish in-flight requests, stop the jobs, then close the database (the embedded one flushes to disk).
 * A forked API process hears SIGTERM from its supervisor, which says so once for all; if the supervisor
 * is killed, node:cluster ends the forked processes at once (the port was the supervisor's).
 */
function closeOnSignal(place: ApiProcessPlace, close: () => Promise<void>): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    if (!place.supervised) console.log(`${signal}: shutting down`);
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
}

/** Several API processes: migrate once here, then fork them and watch them (api-cluster.ts). */
async function supervise(config: AppConfig): Promise<void> {
  const { database, applied, warnings } = await openMigratedDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: 1,
  });
  await database.close();
  for (const warning of warnings) console.warn(`warning: ${warning}`);
  console.log(
    `database: PostgreSQL; migrations applied now: ${applied.length ? applied.join(', ') : 'none (up to date)'}; ` +
      `starting ${config.apiProcesses} API processes`,
  );
  await superviseApiProcesses(config.apiProcesses);
}

async function main(): Promise<void> {
  const config = loadConfig();
  if (isApiSupervisor(config.apiProcesses)) return supervise(config);
  const place = apiProcessPlace(config.apiProcesses);
  const mode =
    config.databaseUrl === undefined
      ? `embedded PGlite in ${config.dataDir}`
      : config.readReplica === undefined
        ? 'PostgreSQL'
        : 'PostgreSQL, read-only routes on its replica (DATABASE_READ_URL)';
  const { database, applied, warnings } = await openMigratedDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    readReplica: config.readReplica,
    analyzeCheckMs: config.analyzeCheckSeconds * 1000,
  });
  if (!place.supervised) {
    for (const warning of warnings) console.warn(`warning: ${warning}`);
    console.log(
      `database: ${mode}; migrations applied now: ${applied.length ? applied.join(', ') : 'none (up to date)'}`,
    );
  }
  const token = await operatorToken(config);
  // The console is built beside the compiled API: dist/apps/console next to dist/apps/api.
  const consoleDir = resolve(__dirname, '..', '..', 'console');
  const app = await createApiApp({
    database,
    operatorToken: token,
    rateLimit: config.rateLimit,
    edge: config.edge,
    events: config.events,
    signingKey: await signingKey(config),
    logLevels: ['error', 'warn'],
    consoleDir,
    runLeaseSeconds: config.reconcileRunLeaseSeconds,
    metrics: config.metrics,
    proofsPerMinuteMax: config.proofsPerMinuteMax,
  });
  // Of several API processes, the first alone runs the jobs and loads the demo, as one process would.
  const first = place.index === 0;
  const worker =
    config.workerInProcess && first
      ? await NestFactory.createApplicationContext(
          JobsModule.forRoot(database, {
            reconcileCron: config.reconcileCron,
            runLeaseSeconds: config.reconcileRunLeaseSeconds,
            events: config.events,
          }),
          { logger: ['error', 'warn'] },
        )
      : undefined;
  await worker?.init();
  closeOnSignal(place, async () => {
    await app.close();
    await worker?.close();
    await database.close();
  });
  // The demo's provider is up before its orders are made (the worker takes them at once).
  const provider = first && config.demoData ? await startDemoProvider(config.demoProviderPort) : undefined;
  const demo = first ? await demoFacts(config, app) : undefined;
  const key = demo?.key;
  await app.listen(config.port, config.host);
  if (!first) return;
  const base = `http://${config.host}:${config.port}`;
  if (provider !== undefined && demo!.providerWebhookEndpoint.startsWith('/v1/')) {
    await provider.sendWebhooksTo(`${base}${demo!.providerWebhookEndpoint}`);
  }
  const lines = [
    `Ledger is running at ${base}`,
    `  console:             ${base}/console/`,
    `  API docs (OpenAPI):  ${base}/docs`,
    `  health:              ${base}/health`,
    ...(place.count > 1 ? [`  API processes:       ${place.count} on this port`] : []),
    ...(token && config.databaseUrl === undefined
      ? [`  operator token:      ${token}   (creates tenants: POST /v1/tenants)`]
      : []),
    ...(key
      ? [
          `  demo API key:        ${key}`,
          `  try: curl -H "Authorization: Bearer ${key}" ${base}/v1/accounts/assets:bank:main`,
        ]
      : []),
    ...(provider
      ? [`  provider simulator:  ${provider.url}   (the demo's payment orders: ${base}/console/#/payments)`]
      : []),
  ];
  console.log(`\n${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
