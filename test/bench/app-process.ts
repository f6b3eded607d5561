import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve, sep } from 'node:path';

/** The built apps: this file runs from dist/test/bench (node) or from test/bench (vitest, after `npm run build`). */
export const DIST_DIRECTORY = __dirname.includes(`${sep}dist${sep}`) ? resolve(__dirname, '..', '..') : resolve(__dirname, '..', '..', 'dist');

export type AppName = 'api' | 'worker';

/** What each app prints once it serves (the API) or has scheduled its jobs (the worker). */
const READY_LINES: Record<AppName, string> = { api: 'Ledger is running at', worker: 'job(s)' };
/** Nest's log level column: an error line from either app (a 5xx, a failed job). */
const ERROR_LINE = /\bERROR\b/;
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 5_000;
const OUTPUT_TAIL_LINES = 40;

/** A port nobody listens on right now (the API cannot be told to pick one and report it). */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolvePort(port) : reject(new Error('no free port'))));
    });
  });
}

export interface AppProcessOptions {
  app: AppName;
  databaseUrl: string;
  /** The API's port (the worker serves nothing). */
  port: number;
  adminToken: string;
  poolSize: number;
  nodeArgs: string[];
  /** Settings beyond the defaults below, as environment variables (e.g. RECONCILE_CRON for the worker). */
  settings?: Record<string, string>;
}

/**
 * A built app (`node dist/apps/<app>/src/main.js`) as a child process, so that it and the load
 * generator do not share an event loop.
 */
export class AppProcess {
  private readonly outputTail: string[] = [];
  private exited = false;
  /** Lines the app logged at level ERROR over its whole life. */
  errorLines = 0;

  private constructor(
    private readonly child: ChildProcess,
    readonly app: AppName,
    readonly baseUrl: string,
  ) {
    child.once('exit', () => (this.exited = true));
    // Both pipes are drained for the whole life of the child: a full pipe would block its writes.
    for (const stream of [child.stdout, child.stderr]) {
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => this.remember(chunk));
    }
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  static async start(options: AppProcessOptions): Promise<AppProcess> {
    const entry = resolve(DIST_DIRECTORY, 'apps', options.app, 'src', 'main.js');
    const child = spawn(process.execPath, [...options.nodeArgs, entry], {
      env: {
        ...process.env,
        DATABASE_URL: options.databaseUrl,
        PORT: String(options.port),
        LEDGER_ADMIN_TOKEN: options.adminToken,
        LEDGER_DEMO_DATA: 'false',
        LEDGER_WORKER_IN_PROCESS: 'false',
        DATABASE_POOL_SIZE: String(options.poolSize),
        // The bench drives one key far past any sane per-key limit on purpose.
        RATE_LIMIT_PER_SECOND: '0',
        NODE_ENV: 'production',
        ...options.settings,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const started = new AppProcess(child, options.app, `http://127.0.0.1:${options.port}`);
    try {
      await started.waitUntilReady();
    } catch (error) {
      await started.stop();
      throw error;
    }
    return started;
  }

  /** Last lines the server printed, for the failure report. */
  tail(): string {
    return this.outputTail.join('\n');
  }

  private remember(chunk: string): void {
    for (const line of chunk.split('\n')) {
      if (line.trim() === '') continue;
      if (ERROR_LINE.test(line)) this.errorLines++;
      this.outputTail.push(line);
      if (this.outputTail.length > OUTPUT_TAIL_LINES) this.outputTail.shift();
    }
  }

  private async waitUntilReady(): Promise<void> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (this.exited) throw new Error(`${this.app} exited during start:\n${this.tail()}`);
      if (this.outputTail.some((line) => line.includes(READY_LINES[this.app])) && (this.app === 'worker' || (await this.healthy()))) return;
      await new Promise((resolveWait) => setTimeout(resolveWait, 100));
    }
    throw new Error(`${this.app} not ready after ${START_TIMEOUT_MS} ms:\n${this.tail()}`);
  }

  private async healthy(): Promise<boolean> {
    try {
      const response = await fetch(`${this.baseUrl}/health`, { signal: AbortSignal.timeout(2_000) });
      return response.status === 200;
    } catch {
      return false;
    }
  }

  /** SIGTERM, then SIGKILL if it has not exited in time. Safe to call twice. */
  async stop(): Promise<void> {
    if (this.exited || this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolveExit) => this.child.once('exit', () => resolveExit()));
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  /** For process 'exit' handlers, where nothing asynchronous runs any more. */
  killNow(): void {
    if (!this.exited && this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}
