import { BUILT, BuiltProcess, READY_LINE } from '../../support/built-process';
import { freePort } from '../../support/free-port';
import { type Answer, apiIsHealthy, requestJson } from '../../support/http-json';
import type { LedgerStack } from './ledger-stack';

const REQUEST_TIMEOUT_MS = 30_000;

export type FleetKind = 'api' | 'worker';

/** One API or worker of the fleet: started again on the same port (an API) after a kill. */
interface Member {
  kind: FleetKind;
  index: number;
  port: number;
  process: BuiltProcess | undefined;
}

/**
 * Several API processes (each on its own port, as behind a load balancer) and several workers, all
 * separate built processes on the stack's one database. The first API takes the stack's own port, so
 * the stack's helpers (its requests, the CLI) reach it.
 */
export class LedgerFleet {
  readonly kills = { api: 0, worker: 0 };
  private next = 0;

  private constructor(
    private readonly stack: LedgerStack,
    private readonly members: Member[],
    private readonly settings: Record<string, string>,
  ) {}

  static async create(
    stack: LedgerStack,
    counts: { apis: number; workers: number },
    settings: Record<string, string> = {},
  ): Promise<LedgerFleet> {
    const members: Member[] = [];
    for (let index = 0; index < counts.apis; index++)
      members.push({ kind: 'api', index, port: index === 0 ? stack.port : await freePort(), process: undefined });
    for (let index = 0; index < counts.workers; index++)
      members.push({ kind: 'worker', index, port: 0, process: undefined });
    return new LedgerFleet(stack, members, settings);
  }

  of(kind: FleetKind): Member[] {
    return this.members.filter((member) => member.kind === kind);
  }

  async startAll(): Promise<void> {
    for (const member of this.members) await this.start(member.kind, member.index);
  }

  /** `settings`: more environment for this start only (e.g. another reconciliation schedule). */
  async start(kind: FleetKind, index: number, settings: Record<string, string> = {}): Promise<void> {
    const member = this.of(kind)[index]!;
    if (member.process?.running) throw new Error(`${kind} ${index} is already running`);
    const port: Record<string, string> = kind === 'api' ? { PORT: String(member.port) } : {};
    const env = this.stack.environment({ ...this.settings, ...settings, ...port });
    member.process = BuiltProcess.spawn(`${kind}-${index}`, BUILT[kind], { env });
    const baseUrl = `http://127.0.0.1:${member.port}`;
    await member.process.waitUntilReady(READY_LINE[kind], () =>
      kind === 'api' ? apiIsHealthy(baseUrl) : Promise.resolve(true),
    );
  }

  /** SIGTERM: the process finishes what it is doing (a graceful stop, not a kill). */
  async stop(kind: FleetKind, index: number): Promise<void> {
    await this.of(kind)[index]!.process?.stop();
  }

  /** SIGKILL; answers the pid it killed. */
  async kill(kind: FleetKind, index: number): Promise<number> {
    const member = this.of(kind)[index]!;
    const pid = member.process?.pid ?? -1;
    await member.process?.kill9();
    this.kills[kind]++;
    return pid;
  }

  /** A request to the next running API in turn (as a load balancer would spread them). */
  request(
    method: string,
    path: string,
    options: { key?: string; body?: unknown; idempotencyKey?: string } = {},
  ): Promise<Answer> {
    const running = this.of('api').filter((member) => member.process?.running);
    const member = running[this.next++ % Math.max(running.length, 1)] ?? this.of('api')[0]!;
    return requestJson(`http://127.0.0.1:${member.port}`, method, path, { ...options, timeoutMs: REQUEST_TIMEOUT_MS });
  }

  /** The last output of every process the fleet ran (for a failure report). */
  tails(): string {
    return this.members
      .map((member) => member.process?.tail() ?? `${member.kind}-${member.index}: never ran`)
      .join('\n');
  }

  async dispose(): Promise<void> {
    await Promise.all(this.members.map((member) => member.process?.stop().catch(() => undefined)));
  }
}
