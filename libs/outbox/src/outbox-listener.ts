import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable, Logger } from '@nestjs/common';
import { Database, type SqlListener } from '@ledger/db';
import { backoffDelayMs } from './backoff';
import { OUTBOX_CHANNEL } from './outbox-signal';

const RECONNECT_DELAY_BASE_MS = 200;
const RECONNECT_DELAY_CAP_MS = 5_000;

/**
 * A worker's ear for OutboxSignal: calls back on each notification that events were committed. Its
 * connection is its own; when that is lost (the database restarted) it listens again after a backoff,
 * and meanwhile the loops it wakes find the events by polling, as they always do.
 */
@Injectable()
export class OutboxListener {
  private readonly logger = new Logger('outbox');
  private readonly stopping = new AbortController();
  private listener: SqlListener | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly db: Database) {}

  start(onEventsCommitted: () => void): void {
    this.running ??= this.keepListening(onEventsCommitted);
  }

  /** Stops listening; resolves once its connection is closed. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.closeListener();
    await this.running;
  }

  private async keepListening(onEventsCommitted: () => void): Promise<void> {
    const { signal } = this.stopping;
    for (let failures = 0; !signal.aborted; ) {
      try {
        this.listener = await this.db.listen(OUTBOX_CHANNEL, onEventsCommitted);
        if (signal.aborted) break;
        failures = 0;
        await this.listener.ended;
        if (signal.aborted) break;
        this.logger.warn('lost the connection that hears of committed events; polling until it is back');
      } catch (error) {
        if (failures === 0)
          this.logger.warn(`cannot listen for committed events (polling meanwhile): ${String(error)}`);
      }
      await this.closeListener();
      failures++;
      const delayMs = backoffDelayMs(failures, RECONNECT_DELAY_BASE_MS, RECONNECT_DELAY_CAP_MS);
      await sleep(delayMs, undefined, { signal }).catch(() => {});
    }
    await this.closeListener();
  }

  private async closeListener(): Promise<void> {
    const listener = this.listener;
    this.listener = undefined;
    await listener?.close().catch(() => {});
  }
}
