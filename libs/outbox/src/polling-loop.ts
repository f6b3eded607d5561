import { Logger } from '@nestjs/common';
import { backoffDelayMs } from './backoff';

export interface PollingLoopOptions {
  name: string;
  /** Pause after a step that found nothing to do. */
  idleDelayMs: number;
  /** Backoff after failing steps: base and cap of the jittered exponential wait. */
  errorDelayBaseMs: number;
  errorDelayCapMs: number;
}

/**
 * Runs `step` again and again: at once while it finds work, after `idleDelayMs` when it finds none,
 * and with a growing jittered backoff while it fails (a broker or database that is down).
 * `wake()` says there may be work again (a slot freed): it ends the idle pause, or spares the next one.
 * `stop()` lets the step in progress finish (the current batch), then resolves.
 */
export class PollingLoop {
  private readonly logger: Logger;
  private running: Promise<void> | undefined;
  private stopping = false;
  /** Set by wake() during a step: skip the idle pause after it. */
  private woken = false;
  /** Ends the pause in progress, and whether it is an idle one (a wake ends only those). */
  private endPause: (() => void) | undefined;
  private pausedIdle = false;

  constructor(
    private readonly options: PollingLoopOptions,
    private readonly step: () => Promise<number>,
  ) {
    this.logger = new Logger(options.name);
  }

  start(): void {
    if (this.running) return;
    this.stopping = false;
    this.running = this.run();
  }

  /** Ends the idle pause at once, or spares the one after the step in progress; never an error backoff. */
  wake(): void {
    this.woken = true;
    if (this.pausedIdle) this.endPause?.();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.endPause?.();
    await this.running;
    this.running = undefined;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      this.woken = false;
      try {
        const done = await this.step();
        failures = 0;
        if (done === 0 && !this.woken) await this.pause(this.options.idleDelayMs, true);
      } catch (error) {
        failures++;
        const delayMs = backoffDelayMs(failures, this.options.errorDelayBaseMs, this.options.errorDelayCapMs);
        const message = error instanceof Error ? error.message : String(error);
        this.logger.warn(`${this.options.name} failed (${failures} in a row, next try in ${delayMs} ms): ${message}`);
        await this.pause(delayMs, false);
      }
    }
  }

  private pause(ms: number, idle: boolean): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const end = () => {
        clearTimeout(timer);
        this.pausedIdle = false;
        this.endPause = undefined;
        resolve();
      };
      const timer = setTimeout(end, ms);
      this.pausedIdle = idle;
      this.endPause = end;
    });
  }
}
