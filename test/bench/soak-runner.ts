import { performance } from 'node:perf_hooks';
import { benchPool, dropDatabase, recreateDatabase } from './bench-database';
import type { BenchLog } from './bench-log';
import type { SoakConfig } from './soak-config';
import { type InvariantCheck, checkSoakInvariants } from './soak-invariants';
import { pickOperation } from './soak-operations';
import { type OperationSummary, SoakRecorder } from './soak-recorder';
import { type SoakWorld, startSoakWorld, stopSoakWorld, stopWorkers } from './soak-setup';
import { SoakState } from './soak-state';

// The soak: `clients` closed-loop clients run the operation mix against the built API (with the worker
// beside it) until the time is up; then the worker is stopped and the invariants are checked.

const PROGRESS_EVERY_MS = 10_000;

export interface SoakReport {
  startedAt: string;
  seconds: number;
  clients: number;
  operations: OperationSummary[];
  checks: InvariantCheck[];
  /** True when every check held and no operation saw an outcome it does not expect. */
  ok: boolean;
}

async function drive(state: SoakState, config: SoakConfig, log: BenchLog): Promise<number> {
  const started = performance.now();
  const deadline = started + config.seconds * 1000;
  let requests = 0;
  const progress = setInterval(
    () =>
      log(
        `${((performance.now() - started) / 1000).toFixed(0)} s: ${requests} operations, ${state.acknowledged.size} ` +
          'transactions acknowledged',
      ),
    PROGRESS_EVERY_MS,
  );
  const client = async () => {
    while (performance.now() < deadline) {
      await pickOperation()(state);
      requests++;
    }
  };
  try {
    await Promise.all(Array.from({ length: config.clients }, client));
  } finally {
    clearInterval(progress);
  }
  return (performance.now() - started) / 1000;
}

/** Error lines each app logged while the load ran (the worker's shutdown is not part of the soak). */
interface ErrorLines {
  api: number;
  worker: number;
}

function runChecks(
  errorLines: ErrorLines,
  recorder: SoakRecorder,
  operations: readonly OperationSummary[],
): InvariantCheck[] {
  const unexpected = operations.flatMap((operation) =>
    Object.entries(operation.unexpected).map(([outcome, count]) => `${operation.operation}: ${count} x ${outcome}`),
  );
  return [
    {
      name: 'no unexpected answer (no 5xx, no unplanned 4xx, no lost request)',
      ok: unexpected.length === 0,
      detail: unexpected.join('; ') || 'none',
    },
    {
      name: 'retries, races and acknowledgements behaved',
      ok: recorder.violations.length === 0,
      detail: recorder.violations.slice(0, 10).join('; ') || 'none',
    },
    {
      name: 'API and worker logged no error under load',
      ok: errorLines.api === 0 && errorLines.worker === 0,
      detail: `API ${errorLines.api}, worker ${errorLines.worker} error lines`,
    },
  ];
}

export async function runSoak(config: SoakConfig, log: BenchLog): Promise<SoakReport> {
  const startedAt = new Date().toISOString();
  const databaseUrl = await recreateDatabase(config.adminDatabaseUrl, config.databaseName);
  const pool = benchPool(databaseUrl, 2, 'ledger-soak-checks');
  // Whatever ends this process, the API and worker children go with it (built-process.ts).
  let world: SoakWorld | undefined;
  try {
    world = await startSoakWorld(config, databaseUrl);
    log(
      `API (pid ${world.api.process.pid}, ${config.apiProcesses} process(es)) and ${config.workers} worker(s) ` +
        `(pids ${world.workers.map((worker) => worker.process.pid).join(', ')}) on ${config.databaseName}; ` +
        `${config.clients} clients for ${config.seconds} s`,
    );
    const recorder = new SoakRecorder();
    const state = new SoakState(world, recorder);
    const elapsedSeconds = await drive(state, config, log);
    const errorLines: ErrorLines = {
      api: world.api.process.errorLines,
      worker: world.workers.reduce((sum, worker) => sum + worker.process.errorLines, 0),
    };
    // Nothing writes while the books are read: the workers' jobs (hold expiry, reconciliation) stop too.
    await stopWorkers(world);
    const operations = recorder.summaries(elapsedSeconds);
    const checks = [
      ...(await checkSoakInvariants(pool, databaseUrl, world.tenantId, state.acknowledged)),
      ...runChecks(errorLines, recorder, operations),
    ];
    if (checks.some((check) => !check.ok))
      log(
        `last API output:\n${world.api.process.tail()}\nlast worker output:\n` +
          world.workers.map((worker) => worker.process.tail()).join('\n'),
      );
    return {
      startedAt,
      seconds: elapsedSeconds,
      clients: config.clients,
      operations,
      checks,
      ok: checks.every((check) => check.ok),
    };
  } finally {
    if (world !== undefined) await stopSoakWorld(world);
    await pool.end();
    if (!config.keepDatabase) await dropDatabase(config.adminDatabaseUrl, config.databaseName);
  }
}
