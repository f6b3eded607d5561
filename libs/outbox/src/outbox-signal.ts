import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Database } from '@ledger/db';

/** The channel (LISTEN/NOTIFY) on which the processes that write events tell the workers that some committed. */
export const OUTBOX_CHANNEL = 'ledger_outbox';
/** At most one notification per this many milliseconds per process; a burst's last events are announced at its end. */
export const ANNOUNCE_INTERVAL_MS = 20;

/**
 * Tells the workers' relay and webhook queue that events were committed, so that they look at once instead
 * of at the end of their idle pause. The notification is sent after the commit, in a transaction of its own:
 * NOTIFY inside a posting transaction would make PostgreSQL commit the notifying transactions one at a time.
 * It is only a hint: the workers still poll, so a notification lost (a worker reconnecting, the database
 * away) costs latency, never an event. Under load, one notification per ANNOUNCE_INTERVAL_MS at most.
 */
@Injectable()
export class OutboxSignal implements OnApplicationShutdown {
  private readonly logger = new Logger('outbox');
  private lastSentAt = Number.NEGATIVE_INFINITY;
  private trailing: NodeJS.Timeout | undefined;

  constructor(private readonly db: Database) {}

  /** Called in the transaction that wrote events: once it commits, the workers are told. */
  eventsWritten(): void {
    this.db.afterCommit(this.announce);
  }

  onApplicationShutdown(): void {
    clearTimeout(this.trailing);
    this.trailing = undefined;
  }

  private readonly announce = (): void => {
    if (this.trailing !== undefined) return;
    const wait = this.lastSentAt + ANNOUNCE_INTERVAL_MS - Date.now();
    if (wait <= 0) {
      this.send();
      return;
    }
    this.trailing = setTimeout(() => {
      this.trailing = undefined;
      this.send();
    }, wait);
    this.trailing.unref();
  };

  private send(): void {
    this.lastSentAt = Date.now();
    this.db.notify(OUTBOX_CHANNEL).catch((error: unknown) => {
      this.logger.debug(`events committed, workers not told (they find them at their next look): ${String(error)}`);
    });
  }
}
