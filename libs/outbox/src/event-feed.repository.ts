import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { type LedgerEvent, type OutboxRow, toLedgerEvent } from './outbox-event';

// Only rows of transactions older than every transaction of this database still running are served,
// so a row that commits late can never land behind a cursor a reader has already moved past. Running
// transactions of other databases on the same server (they never write this outbox) are left out of
// that fence when pg_stat_activity names their database, so a long job next door does not stall the
// feed; one it cannot name (no privilege, a prepared or sub-transaction) counts, which only delays.
// Whether an xid belongs to another database never changes, so when that view is read does not matter.
const LIST_EVENTS = `
WITH other_databases AS (
  SELECT backend_xid::text::int8 AS xid32 FROM pg_stat_activity
   WHERE backend_xid IS NOT NULL AND datname IS DISTINCT FROM current_database()
), fence AS (
  SELECT coalesce(min(running), pg_snapshot_xmax(pg_current_snapshot())) AS xid
    FROM pg_snapshot_xip(pg_current_snapshot()) AS running
   WHERE running::text::int8 % 4294967296 NOT IN (SELECT xid32 FROM other_databases)
)
SELECT id, type, tenant_id, aggregate_id, aggregate_version, occurred_at, data, xid::text AS xid, position
  FROM outbox_events
 WHERE tenant_id = $1
   AND (xid, position) > ($2::text::xid8, $3::int8)
   AND xid < (SELECT xid FROM fence)
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

  async listAfter(
    tenantId: string,
    after: FeedPosition,
    limit: number,
  ): Promise<{ event: LedgerEvent; position: FeedPosition }[]> {
    const rows = await this.db.executor.query<OutboxRow>(LIST_EVENTS, [tenantId, after.xid, after.position, limit]);
    return rows.map((row) => ({
      event: toLedgerEvent(row),
      position: { xid: row.xid, position: row.position },
    }));
  }
}
