import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { type LedgerEvent, type OutboxRow, toLedgerEvent } from '../outbox-event';
import { CLAIM_BATCH, DELETE_PUBLISHED_BEFORE, MARK_PUBLISHED, OUTBOX_BACKLOG } from './relay.sql';

export interface OutboxBacklog {
  unpublished: bigint;
  /** When the oldest unpublished event occurred; undefined when none is waiting. */
  oldestUnpublished: Date | undefined;
  /** Events whose webhook deliveries are not written yet, and when the oldest of them occurred. */
  webhooksUnqueued: bigint;
  oldestUnqueued: Date | undefined;
}

/** The outbox as the broker relay sees it; claim and mark run in the caller's transaction. */
@Injectable()
export class RelayRepository {
  constructor(private readonly db: Database) {}

  async claim(batchSizeMax: number): Promise<LedgerEvent[]> {
    const rows = await this.db.executor.query<OutboxRow>(CLAIM_BATCH, [batchSizeMax]);
    return rows.map(toLedgerEvent);
  }

  async markPublished(events: readonly LedgerEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.db.executor.query(MARK_PUBLISHED, [
      events.map((event) => event.tenantId),
      events.map((event) => event.id),
    ]);
  }

  /** Deletes at most `limit` rows published before `before` whose webhooks are queued; returns how many. */
  async deletePublishedBefore(before: Date, limit: number): Promise<number> {
    const rows = await this.db.executor.query<{ id: string }>(`${DELETE_PUBLISHED_BEFORE} RETURNING id`, [
      before,
      limit,
    ]);
    return rows.length;
  }

  async backlog(): Promise<OutboxBacklog> {
    const [row] = await this.db.executor.query<{
      oldest_unpublished: Date | null;
      unpublished: bigint;
      oldest_unqueued: Date | null;
      unqueued: bigint;
    }>(OUTBOX_BACKLOG);
    return {
      unpublished: row!.unpublished,
      oldestUnpublished: row!.oldest_unpublished ?? undefined,
      webhooksUnqueued: row!.unqueued,
      oldestUnqueued: row!.oldest_unqueued ?? undefined,
    };
  }
}
