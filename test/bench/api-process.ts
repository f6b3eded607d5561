import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import pg from 'pg';

const READY_LINE = 'Ledger is running at';
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 5_000;
const OUTPUT_TAIL_LINES = 40;

/** Drops and recreates the bench database: every bench starts from empty tables. */
export async function recreateDatabase(adminDatabaseUrl: string, databaseName: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminDatabaseUrl });
  await client.connect();
  try {
    // The name was validated as a plain identifier; identifiers cannot be bind parameters.
    await client.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${databaseName}`);
  } finally {
    await client.end();
  }
}

export function databaseUrlFor(adminDatabaseUrl: string, databaseName: string): string {
  const url = new URL(adminDatabaseUrl);
  url.pathname = `/${databaseName}`;
  return url.toString();
}

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

export interface ApiProcessOptions {
  databaseUrl: string;
  port: number;
  adminToken: string;
  poolSize: number;
  nodeArgs: string[];
}

/** The API server as a child process, so that it and the load generator do not share an event loop. */
export class ApiProcess {
  private readonly outputTail: string[] = [];
  private exited = false;

  private constructor(
    private readonly child: ChildProcess,
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

  static async start(options: ApiProcessOptions): Promise<ApiProcess> {
    const entry = resolve(__dirname, '../../apps/api/src/main.js');
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
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const api = new ApiProcess(child, `http://127.0.0.1:${options.port}`);
    try {
      await api.waitUntilReady();
    } catch (error) {
      await api.stop();
      throw error;
    }
    return api;
  }

  /** Last lines the server printed, for the failure report. */
  tail(): string {
    return this.outputTail.join('\n');
  }

  private remember(chunk: string): void {
    for (const line of chunk.split('\n')) {
      if (line.trim() === '') continue;
      this.outputTail.push(line);
      if (this.outputTail.length > OUTPUT_TAIL_LINES) this.outputTail.shift();
    }
  }

  private async waitUntilReady(): Promise<void> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (this.exited) throw new Error(`API exited during start:\n${this.tail()}`);
      if (this.outputTail.some((line) => line.includes(READY_LINE)) && (await this.healthy())) return;
      await new Promise((resolveWait) => setTimeout(resolveWait, 100));
    }
    throw new Error(`API not ready after ${START_TIMEOUT_MS} ms:\n${this.tail()}`);
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
