import { withApiNodeFlags } from '../../apps/api/src/node-flags';
import { BUILT, BuiltProcess, READY_LINE } from '../support/built-process';
import { apiIsHealthy } from '../support/http-json';

export type AppName = 'api' | 'worker';

export interface AppProcessOptions {
  app: AppName;
  databaseUrl: string;
  /** The API's port (the worker serves nothing). */
  port: number;
  adminToken: string;
  poolSize: number;
  nodeArgs: string[];
  /** The node binary it runs on (BENCH_API_NODE); the bench's own when not given. */
  node?: string;
  /** Settings beyond the defaults below, as environment variables (e.g. RECONCILE_CRON for the worker). */
  settings?: Record<string, string>;
}

/** A built app running as a child process, so that it and the load generator do not share an event loop. */
export interface AppProcess {
  process: BuiltProcess;
  baseUrl: string;
}

/**
 * Starts `node dist/apps/<app>/src/main.js` and waits until it serves (the API) or has scheduled its jobs
 * (the worker).
 */
export async function startApp(options: AppProcessOptions): Promise<AppProcess> {
  const baseUrl = `http://127.0.0.1:${options.port}`;
  const env = {
    DATABASE_URL: options.databaseUrl,
    PORT: String(options.port),
    LEDGER_ADMIN_TOKEN: options.adminToken,
    LEDGER_DEMO_DATA: 'false',
    LEDGER_WORKER_IN_PROCESS: 'false',
    DATABASE_POOL_SIZE: String(options.poolSize),
    // The benches drive one key far past any sane per-key limit on purpose.
    RATE_LIMIT_PER_SECOND: '0',
    NODE_ENV: 'production',
    // One process, so a kill -9 of it is a crash of the process serving (and its CPU is one process's).
    API_PROCESSES: '1',
    ...options.settings,
  };
  // The API as the README's production command line starts it (one process: the flags are its own).
  const nodeArgs = options.app === 'api' ? withApiNodeFlags(options.nodeArgs) : options.nodeArgs;
  const child = BuiltProcess.spawn(options.app, BUILT[options.app], { env, nodeArgs, node: options.node });
  try {
    await child.waitUntilReady(
      READY_LINE[options.app],
      async () => options.app === 'worker' || (await apiIsHealthy(baseUrl)),
    );
  } catch (error) {
    await child.stop();
    throw error;
  }
  return { process: child, baseUrl };
}
