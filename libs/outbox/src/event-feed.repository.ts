import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { type LedgerEvent, type OutboxRow, toLedgerEvent } from './outbox-event';

// Only rows of transactions older than every transaction still running are served, so a row that
// commits late can never land behind a cursor a reader has already moved past.
const LIST_EVENTS = `
SELECT id, type, tenant_id, aggregate_id, aggregate_version, occurred_at, data, xid::text AS xid, position
  FROM outbox_events
 WHERE tenant_id = $1
   AND (xid, position) > ($2::text::xid8, $3::int8)
   AND xid < pg_snapshot_xmin(pg_current_snapshot())
 ORDER BY xid, position
 LIMIT $4`;

export interface FeedPosition {
  xid: string;
  position: bigint;
}

export const FEED_START: FeedPosition = { xid: '0', position: 0n };

@Injectable()
export class EventFeedRepository {
  constructor(private readonly db: Database) {}

  async listAfter(tenantId: string, after: FeedPosition, limit: number): Promise<{ event: LedgerEvent; position: FeedPosition }[]> {
    const rows = await this.db.executor.query<OutboxRow>(LIST_EVENTS, [tenantId, after.xid, after.position, limit]);
    return rows.map((row) => ({
      event: toLedgerEvent(row),
      position: { xid: row.xid, position: row.position },
    }));
  }
}
