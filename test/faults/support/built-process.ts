import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** The compiled entry points `npm run build` leaves in dist/ (the fault tests crash the real processes). */
export const BUILT = {
  api: resolve(__dirname, '..', '..', '..', 'dist', 'apps', 'api', 'src', 'main.js'),
  worker: resolve(__dirname, '..', '..', '..', 'dist', 'apps', 'worker', 'src', 'main.js'),
  cli: resolve(__dirname, '..', '..', '..', 'dist', 'apps', 'cli', 'src', 'main.js'),
};

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

  static spawn(name: string, entry: string, args: string[], env: Record<string, string>): BuiltProcess {
    const child = spawn(process.execPath, [entry, ...args], { env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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
