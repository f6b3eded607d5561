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
 * `stop()` lets the step in progress finish (the current batch), then resolves.
 */
export class PollingLoop {
  private readonly logger: Logger;
  private running: Promise<void> | undefined;
  private stopping = false;
  private wake: (() => void) | undefined;

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

  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.running;
    this.running = undefined;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      let delayMs = 0;
      try {
        const done = await this.step();
        failures = 0;
        if (done === 0) delayMs = this.options.idleDelayMs;
      } catch (error) {
        failures++;
        delayMs = backoffDelayMs(failures, this.options.errorDelayBaseMs, this.options.errorDelayCapMs);
        const message = error instanceof Error ? error.message : String(error);
        this.logger.warn(`${this.options.name} failed (${failures} in a row, next try in ${delayMs} ms): ${message}`);
      }
      if (delayMs > 0) await this.sleep(delayMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
