import { Database } from '@ledger/db';
import type { LedgerEvent } from '../outbox-event';
import type { EventPublisher } from '../publishers/event-publisher';
import { RelayRepository } from './relay.repository';

export const RELAY_BATCH_SIZE_MAX = 200;

/** Test hooks that simulate a crash at a chosen point of a batch. */
export interface RelayFaults {
  /** Runs after the batch was published and before it is marked; a throw rolls the marks back. */
  afterPublish?(events: readonly LedgerEvent[]): void;
}

export interface RelayResult {
  claimed: number;
  published: number;
}

/**
 * One relay batch, in one transaction: claim unpublished events (row locks, SKIP LOCKED), publish
 * them one by one in order, mark them published, commit. (Webhook deliveries are queued apart, by
 * QueueWebhookDeliveriesUseCase, so that a broker outage does not hold them back.) A publish
 * that fails ends the batch there: what was published before it is marked, the rest waits for the
 * next batch, and the error is rethrown so the caller backs off. A crash before the commit leaves
 * the events unpublished: they are published again, and the broker drops the copy by event id.
 */
export class RelayOutboxUseCase {
  constructor(
    private readonly db: Database,
    private readonly outbox: RelayRepository,
    private readonly publisher: EventPublisher,
    private readonly batchSizeMax: number = RELAY_BATCH_SIZE_MAX,
    private readonly faults: RelayFaults = {},
  ) {}

  async execute(): Promise<RelayResult> {
    let failure: unknown;
    const result = await this.db.transaction('read committed', async () => {
      const claimed = await this.outbox.claim(this.batchSizeMax);
      const published: LedgerEvent[] = [];
      for (const event of claimed) {
        try {
          await this.publisher.publish(event);
        } catch (error) {
          failure = error;
          break;
        }
        published.push(event);
      }
      this.faults.afterPublish?.(published);
      await this.outbox.markPublished(published);
      return { claimed: claimed.length, published: published.length };
    });
    if (failure !== undefined) throw failure;
    return result;
  }
}
