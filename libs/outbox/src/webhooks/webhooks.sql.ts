import { type NoParams, sql } from '@ledger/db';
import type { OutboxRow } from '../outbox-event';
import type { DeliveryStatus } from './webhook.views';

// The webhook delivery queue and its log. Subscriptions are in webhook-subscription.repository.ts.

export interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date;
  last_attempt_at: Date | null;
  last_response_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  created_at: Date;
}

/** A leased delivery with what sending and signing it needs. */
export interface DueDelivery {
  tenant_id: string;
  id: string;
  event_id: string;
  body: string;
  attempts: number;
  url: string;
  secret: string;
  previous_secret: string | null;
}

/** Newest first, keyset by (created_at, id): the page before `:beforeCreatedAt`/`:beforeId` when given. */
export const LIST_DELIVERIES = sql<
  {
    tenantId: string;
    subscriptionId: string;
    status: DeliveryStatus | null;
    beforeCreatedAt: Date | null;
    beforeId: string | null;
    limit: number;
  },
  DeliveryRow
>(`
SELECT id, event_id, event_type, status, attempts, next_attempt_at, last_attempt_at, last_response_status,
       last_error, delivered_at, created_at
  FROM webhook_deliveries
 WHERE tenant_id = :tenantId AND subscription_id = :subscriptionId AND (:status::text IS NULL OR status = :status)
   AND (:beforeCreatedAt::timestamptz IS NULL OR (created_at, id) < (:beforeCreatedAt, :beforeId::uuid))
 ORDER BY created_at DESC, id DESC
 LIMIT :limit`);

/** Manual redelivery: back to the queue with a fresh attempt budget, due now. */
export const REDELIVER = sql<{ tenantId: string; subscriptionId: string; id: string }, DeliveryRow>(`
UPDATE webhook_deliveries
   SET status = 'pending', attempts = 0, next_attempt_at = now(), delivered_at = NULL
 WHERE tenant_id = :tenantId AND subscription_id = :subscriptionId AND id = :id
RETURNING id, event_id, event_type, status, attempts, next_attempt_at, last_attempt_at, last_response_status,
          last_error, delivered_at, created_at`);

/**
 * Takes due deliveries with what signing them needs, and leases them: their next attempt moves past
 * the request timeout, so no other sender takes them meanwhile, and a sender that dies mid-request
 * leaves them to be retried when the lease ends. One short statement: no transaction stays open
 * while an endpoint is slow (an open transaction would also hold back the event feed's fence).
 */
export const LEASE_DUE = sql<{ limit: number; leaseMs: number }, DueDelivery>(`
WITH due AS (
  SELECT tenant_id, id FROM webhook_deliveries
   WHERE status = 'pending' AND next_attempt_at <= now()
   ORDER BY next_attempt_at
   LIMIT :limit
     FOR UPDATE SKIP LOCKED
)
UPDATE webhook_deliveries d
   SET next_attempt_at = now() + make_interval(secs => :leaseMs::float8 / 1000)
  FROM due, webhook_subscriptions s
 WHERE d.tenant_id = due.tenant_id AND d.id = due.id AND s.tenant_id = d.tenant_id AND s.id = d.subscription_id
RETURNING d.tenant_id, d.id, d.event_id, d.body, d.attempts, s.url, s.secret,
          CASE WHEN s.previous_secret_expires_at > now() THEN s.previous_secret END AS previous_secret`);

export const RECORD_DELIVERED = sql<{ tenantId: string; id: string; responseStatus: number }>(`
UPDATE webhook_deliveries
   SET status = 'delivered', attempts = attempts + 1, last_attempt_at = now(), delivered_at = now(),
       last_response_status = :responseStatus, last_error = NULL
 WHERE tenant_id = :tenantId AND id = :id`);

/** A failed attempt: retried after `:retryInMs`, or dead-lettered when it was the last one allowed. */
export const RECORD_FAILED = sql<
  {
    tenantId: string;
    id: string;
    responseStatus: number | null;
    error: string;
    retryInMs: number;
    attemptsMax: number;
  },
  { status: DeliveryStatus }
>(`
UPDATE webhook_deliveries
   SET attempts = attempts + 1, last_attempt_at = now(), last_response_status = :responseStatus,
       last_error = :error,
       status = CASE WHEN attempts + 1 >= :attemptsMax THEN 'dead' ELSE 'pending' END,
       next_attempt_at = now() + make_interval(secs => :retryInMs::float8 / 1000)
 WHERE tenant_id = :tenantId AND id = :id
RETURNING status`);

/** Deliveries per status across tenants, and how many pending ones have failed at least once. */
export const DELIVERY_STATISTICS = sql<
  NoParams,
  { status: DeliveryStatus; deliveries: bigint; failed_before: bigint }
>(`
SELECT status, count(*)::int8 AS deliveries, count(*) FILTER (WHERE attempts > 0)::int8 AS failed_before
  FROM webhook_deliveries GROUP BY status`);

/** Delivered rows are kept as long as published events; dead letters until someone redelivers them. */
export const DELETE_DELIVERED_BEFORE = sql<{ before: Date; limit: number }, { id: string }>(`
DELETE FROM webhook_deliveries
 WHERE (tenant_id, id) IN (SELECT tenant_id, id FROM webhook_deliveries
                            WHERE status = 'delivered' AND delivered_at < :before
                            LIMIT :limit)
RETURNING id`);

// The webhook queue: the outbox's second consumer beside the broker relay (see migration webhook_queue).
// Claimed events stay locked until the queue's transaction ends, so several workers share the work.
export const CLAIM_UNQUEUED_EVENTS = sql<{ limit: number }, OutboxRow>(`
SELECT id, type, tenant_id, aggregate_id, aggregate_version, occurred_at, data, xid::text AS xid, position
  FROM outbox_events
 WHERE webhooks_queued_at IS NULL
 ORDER BY xid, position
 LIMIT :limit
   FOR UPDATE SKIP LOCKED`);

/** One delivery per matching subscription; queuing an event again adds nothing. */
export const ENQUEUE_DELIVERIES = sql<{ tenantIds: string[]; ids: string[]; types: string[]; bodies: string[] }>(`
INSERT INTO webhook_deliveries (tenant_id, id, subscription_id, event_id, event_type, body)
SELECT s.tenant_id, gen_random_uuid(), s.id, e.id, e.type, e.body
  FROM unnest(:tenantIds::uuid[], :ids::uuid[], :types::text[], :bodies::text[]) AS e(tenant_id, id, type, body)
  JOIN webhook_subscriptions s
    ON s.tenant_id = e.tenant_id AND (cardinality(s.event_types) = 0 OR e.type = ANY (s.event_types))
ON CONFLICT (tenant_id, subscription_id, event_id) DO NOTHING`);

export const MARK_QUEUED = sql<{ tenantIds: string[]; ids: string[] }>(`
UPDATE outbox_events o
   SET webhooks_queued_at = now()
  FROM unnest(:tenantIds::uuid[], :ids::uuid[]) AS q(tenant_id, id)
 WHERE o.tenant_id = q.tenant_id AND o.id = q.id`);
