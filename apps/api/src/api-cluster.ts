import cluster, { type Worker } from 'node:cluster';
import { setTimeout as sleep } from 'node:timers/promises';
import { withApiNodeFlags } from './node-flags';

/** The environment variable a forked API process reads its place from: 0 is the first. */
const PROCESS_INDEX_VARIABLE = 'LEDGER_API_PROCESS_INDEX';
/** A process that dies is started again after this, doubled per quick death in a row, up to the cap. */
const RESTART_DELAY_BASE_MS = 500;
const RESTART_DELAY_CAP_MS = 30_000;
/** A process that served this long before it died counts as healthy: its successor starts at once. */
const HEALTHY_LIFETIME_MS = 60_000;
/** On SIGTERM the processes finish their requests; past this they are killed. */
const SHUTDOWN_TIMEOUT_MS = 30_000;

/** Which API process this is: the only one (index 0 of 1) unless the supervisor forked it. */
export interface ApiProcessPlace {
  index: number;
  count: number;
  /** It was forked by the supervisor, which stops it (and without which node:cluster ends it). */
  supervised: boolean;
}

export function apiProcessPlace(count: number): ApiProcessPlace {
  if (cluster.isPrimary) return { index: 0, count: 1, supervised: false };
  const index = Number(process.env[PROCESS_INDEX_VARIABLE]);
  return { index: Number.isInteger(index) ? index : 0, count, supervised: true };
}

/** The process forked for `index`, and when; one per index, started again when it dies. */
interface Slot {
  worker: Worker;
  startedAt: number;
  quickDeaths: number;
}

/**
 * The supervisor: forks `count` API processes that share one listening port (node:cluster hands each
 * connection to the next process in turn). It serves nothing itself and holds no database connection.
 * A process that dies is forked again under the same index (index 0 runs the in-process jobs and the
 * demo, so there is always exactly one of it); SIGTERM or SIGINT stop them all, then the supervisor.
 */
export async function superviseApiProcesses(count: number): Promise<void> {
  const slots = new Map<number, Slot>();
  let stopping = false;
  cluster.setupPrimary({ execArgv: withApiNodeFlags(process.execArgv) });

  const fork = (index: number, quickDeaths: number) => {
    const worker = cluster.fork({ [PROCESS_INDEX_VARIABLE]: String(index) });
    slots.set(index, { worker, startedAt: Date.now(), quickDeaths });
    worker.once('exit', (code, signal) => {
      if (stopping) return;
      const slot = slots.get(index);
      const healthy = slot !== undefined && Date.now() - slot.startedAt >= HEALTHY_LIFETIME_MS;
      const deaths = healthy ? 0 : (slot?.quickDeaths ?? 0) + 1;
      const delayMs = deaths === 0 ? 0 : Math.min(RESTART_DELAY_BASE_MS * 2 ** (deaths - 1), RESTART_DELAY_CAP_MS);
      console.error(
        `API process ${index} (pid ${worker.process.pid}) exited (${signal ?? `code ${code}`}); ` +
          `starting another in ${delayMs} ms`,
      );
      void sleep(delayMs).then(() => {
        if (!stopping) fork(index, deaths);
      });
    });
  };

  for (let index = 0; index < count; index++) fork(index, 0);

  await new Promise<void>((resolveStop) => {
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      console.log(`${signal}: stopping ${slots.size} API processes`);
      const exits = [...slots.values()]
        .filter(({ worker }) => !worker.isDead())
        .map(({ worker }) => new Promise<void>((resolveExit) => worker.once('exit', () => resolveExit())));
      for (const { worker } of slots.values()) if (!worker.isDead()) worker.process.kill('SIGTERM');
      const killer = setTimeout(() => {
        for (const { worker } of slots.values()) if (!worker.isDead()) worker.process.kill('SIGKILL');
      }, SHUTDOWN_TIMEOUT_MS);
      void Promise.all(exits).then(() => {
        clearTimeout(killer);
        resolveStop();
      });
    };
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  });
}

/** True in the supervisor of several API processes: it forks them instead of serving. */
export function isApiSupervisor(count: number): boolean {
  return count > 1 && cluster.isPrimary;
}
