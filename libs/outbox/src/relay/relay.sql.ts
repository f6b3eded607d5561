import { type NoParams, sql } from '@ledger/db';
import type { OutboxRow } from '../outbox-event';

// The relay's SQL. Claimed rows stay locked (FOR UPDATE) until the relay's transaction ends, so any
// number of relays share the work: each skips the rows another holds (SKIP LOCKED).
//
// Per-aggregate order: a claimed event is kept only when no earlier event of its aggregate is still
// unpublished outside this claim. An earlier event locked by another relay (or simply not in this
// batch) makes its successors wait for a later batch, so an aggregate's events are published one
// batch after another, in (xid, position) order, never two relays at once.
export const CLAIM_BATCH = sql<{ batchSizeMax: number }, OutboxRow>(`
WITH claimed AS (
  SELECT tenant_id, id, type, aggregate_id, aggregate_version, occurred_at, data, xid, position
    FROM outbox_events
   WHERE published_at IS NULL
   ORDER BY xid, position
   LIMIT :batchSizeMax
     FOR UPDATE SKIP LOCKED
)
SELECT c.id, c.type, c.tenant_id, c.aggregate_id, c.aggregate_version, c.occurred_at, c.data,
       c.xid::text AS xid, c.position
  FROM claimed c
 WHERE NOT EXISTS (
         SELECT 1
           FROM outbox_events earlier
          WHERE earlier.published_at IS NULL
            AND earlier.tenant_id = c.tenant_id
            AND earlier.aggregate_id = c.aggregate_id
            AND (earlier.xid, earlier.position) < (c.xid, c.position)
            AND NOT EXISTS (SELECT 1 FROM claimed mine
                             WHERE mine.tenant_id = earlier.tenant_id AND mine.id = earlier.id))
 ORDER BY c.xid, c.position`);

export const MARK_PUBLISHED = sql<{ tenantIds: string[]; ids: string[] }>(`
UPDATE outbox_events o
   SET published_at = now()
  FROM unnest(:tenantIds::uuid[], :ids::uuid[]) AS p(tenant_id, id)
 WHERE o.tenant_id = p.tenant_id AND o.id = p.id`);

/** At most `:limit` rows published before `:before` whose webhooks are queued too. */
export const DELETE_PUBLISHED_BEFORE = sql<{ before: Date; limit: number }, { id: string }>(`
DELETE FROM outbox_events
 WHERE (tenant_id, id) IN (SELECT tenant_id, id FROM outbox_events
                            WHERE published_at IS NOT NULL AND published_at < :before
                              AND webhooks_queued_at IS NOT NULL
                            LIMIT :limit)
RETURNING id`);

/** What waits for each of the outbox's consumers: the broker relay and the webhook queue. */
export const OUTBOX_BACKLOG = sql<
  NoParams,
  { oldest_unpublished: Date | null; unpublished: bigint; oldest_unqueued: Date | null; unqueued: bigint }
>(`
SELECT relay.oldest_unpublished, relay.unpublished, queue.oldest_unqueued, queue.unqueued
  FROM (SELECT min(occurred_at) AS oldest_unpublished, count(*)::int8 AS unpublished
          FROM outbox_events WHERE published_at IS NULL) AS relay,
       (SELECT min(occurred_at) AS oldest_unqueued, count(*)::int8 AS unqueued
          FROM outbox_events WHERE webhooks_queued_at IS NULL) AS queue`);
