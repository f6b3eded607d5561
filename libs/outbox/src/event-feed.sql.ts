import { sql } from '@ledger/db';
import type { OutboxRow } from './outbox-event';

// Only rows of transactions older than every transaction of this database still running are served,
// so a row that commits late can never land behind a cursor a reader has already moved past. Running
// transactions of other databases on the same server (they never write this outbox) are left out of
// that fence when pg_stat_activity names their database, so a long job next door does not stall the
// feed; one it cannot name (no privilege, a prepared or sub-transaction) counts, which only delays.
// Whether an xid belongs to another database never changes, so when that view is read does not matter.
export const LIST_EVENTS = sql<
  { tenantId: string; afterXid: string; afterPosition: bigint; limit: number },
  OutboxRow
>(`
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
 WHERE tenant_id = :tenantId
   AND (xid, position) > (:afterXid::text::xid8, :afterPosition::int8)
   AND xid < (SELECT xid FROM fence)
 ORDER BY xid, position
 LIMIT :limit`);
