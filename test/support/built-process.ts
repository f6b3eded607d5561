import { type ChildProcess, spawn } from 'node:child_process';
import { resolve, sep } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** `npm run build`'s output: this file runs from test/support (vitest) or from dist/test/support (the benches). */
const DIST_DIRECTORY = __dirname.includes(`${sep}dist${sep}`)
  ? resolve(__dirname, '..', '..')
  : resolve(__dirname, '..', '..', 'dist');

/** The compiled entry points: the fault tests, the soak and the posting bench run the real processes. */
export const BUILT = {
  api: resolve(DIST_DIRECTORY, 'apps', 'api', 'src', 'main.js'),
  worker: resolve(DIST_DIRECTORY, 'apps', 'worker', 'src', 'main.js'),
  cli: resolve(DIST_DIRECTORY, 'apps', 'cli', 'src', 'main.js'),
};

/** What each app prints once it serves (the API) or has scheduled its jobs (the worker). */
export const READY_LINE = { api: 'Ledger is running at', worker: 'scheduled' } as const;

/** Nest's log level column: an error line (a 5xx, a failed job). */
const ERROR_LINE = /\bERROR\b/;

export interface SpawnOptions {
  /** The whole environment besides PATH: nothing of this process's own leaks in by accident. */
  env: Record<string, string>;
  args?: string[];
  /** Flags for node itself, e.g. --prof (diagnostics). */
  nodeArgs?: string[];
  /** The node binary it runs on; this process's own when not given. */
  node?: string;
}

const OUTPUT_TAIL_LINES = 60;
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 5_000;

/** Every child this test file started, so that none outlives it, even when the file fails or exits. */
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** One built process (API, worker or CLI) as a child: its output kept, killable at any moment. */
export class BuiltProcess {
  private readonly outputTail: string[] = [];
  private readonly exit: Promise<number | null>;
  private output = '';
  /** Lines it logged at level ERROR over its whole life. */
  errorLines = 0;

  constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    children.add(child);
    this.exit = new Promise((resolveExit) =>
      child.once('exit', (code) => {
        children.delete(child);
        resolveExit(code);
      }),
    );
    // Both pipes are drained for the whole life of the child: a full pipe would block its writes.
    for (const stream of [child.stdout, child.stderr]) {
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => this.remember(chunk));
    }
  }

  static spawn(name: string, entry: string, options: SpawnOptions): BuiltProcess {
    const child = spawn(
      options.node ?? process.execPath,
      [...(options.nodeArgs ?? []), entry, ...(options.args ?? [])],
      {
        env: { PATH: process.env.PATH ?? '', ...options.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    return new BuiltProcess(name, child);
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Everything it printed (CLI output is short); `tail()` for a failure report. */
  get printed(): string {
    return this.output;
  }

  tail(): string {
    return `${this.name} (pid ${this.pid}):\n${this.outputTail.join('\n')}`;
  }

  private remember(chunk: string): void {
    if (this.output.length < 1_000_000) this.output += chunk;
    for (const line of chunk.split('\n')) {
      if (line.trim() === '') continue;
      if (ERROR_LINE.test(line)) this.errorLines++;
      this.outputTail.push(line);
      if (this.outputTail.length > OUTPUT_TAIL_LINES) this.outputTail.shift();
    }
  }

  /** Waits until it printed `line` and `check` (if any) holds; fails if it exits first. */
  async waitUntilReady(line: string, check: () => Promise<boolean> = async () => true): Promise<void> {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(`${this.name} exited during start:\n${this.tail()}`);
      if (this.output.includes(line) && (await check())) return;
      await sleep(50);
    }
    throw new Error(`${this.name} not ready after ${READY_TIMEOUT_MS} ms:\n${this.tail()}`);
  }

  /** The crash under test: SIGKILL, no shutdown hook runs. Resolves once the process is gone. */
  async kill9(): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGKILL');
    await this.exit;
  }

  /** Exit code once it has exited by itself (a CLI command). */
  exited(): Promise<number | null> {
    return this.exit;
  }

  /** SIGTERM, then SIGKILL if it has not exited in time. Safe to call twice. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await this.exit;
    clearTimeout(timer);
  }
}
