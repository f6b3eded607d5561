import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { LIST_EVENTS } from './event-feed.sql';
import { type LedgerEvent, toLedgerEvent } from './outbox-event';

export interface FeedPosition {
  xid: string;
  position: bigint;
}

export const FEED_START: FeedPosition = { xid: '0', position: 0n };

@Injectable()
export class EventFeedRepository {
  constructor(private readonly db: Database) {}

  async listAfter(
    tenantId: string,
    after: FeedPosition,
    limit: number,
  ): Promise<{ event: LedgerEvent; position: FeedPosition }[]> {
    const rows = await this.db.query(LIST_EVENTS, {
      tenantId,
      afterXid: after.xid,
      afterPosition: after.position,
      limit,
    });
    return rows.map((row) => ({
      event: toLedgerEvent(row),
      position: { xid: row.xid, position: row.position },
    }));
  }
}
