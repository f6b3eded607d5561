import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { type LedgerEvent, toLedgerEvent } from '../outbox-event';
import { CLAIM_BATCH, DELETE_PUBLISHED_BEFORE, MARK_PUBLISHED, OUTBOX_BACKLOG } from './relay.sql';

export interface OutboxBacklog {
  unpublished: bigint;
  /** When the oldest unpublished event occurred; undefined when none is waiting. */
  oldestUnpublished: Date | undefined;
  /** Events whose webhook deliveries are not written yet, and when the oldest of them occurred. */
  webhooksUnqueued: bigint;
  oldestUnqueued: Date | undefined;
}

/** The outbox as the broker relay sees it; claim and mark run in the current transaction. */
@Injectable()
export class RelayRepository {
  constructor(private readonly db: Database) {}

  async claim(batchSizeMax: number): Promise<LedgerEvent[]> {
    return (await this.db.query(CLAIM_BATCH, { batchSizeMax })).map(toLedgerEvent);
  }

  async markPublished(events: readonly LedgerEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.db.query(MARK_PUBLISHED, {
      tenantIds: events.map((event) => event.tenantId),
      ids: events.map((event) => event.id),
    });
  }

  /** Deletes at most `limit` rows published before `before` whose webhooks are queued; returns how many. */
  async deletePublishedBefore(before: Date, limit: number): Promise<number> {
    return (await this.db.query(DELETE_PUBLISHED_BEFORE, { before, limit })).length;
  }

  async backlog(): Promise<OutboxBacklog> {
    const [row] = await this.db.query(OUTBOX_BACKLOG);
    return {
      unpublished: row!.unpublished,
      oldestUnpublished: row!.oldest_unpublished ?? undefined,
      webhooksUnqueued: row!.unqueued,
      oldestUnqueued: row!.oldest_unqueued ?? undefined,
    };
  }
}
