import { type NoParams, sql } from '@ledger/db';
import type { OutboxRow } from '../outbox-event';

// The webhook delivery queue and its log. Subscriptions are in webhook-subscription.repository.ts.

export type DeliveryStatus = 'pending' | 'delivered' | 'dead';

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
  subscription_id: string;
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
 * Leases are taken one at a time across all workers: LEASE_DUE runs after this lock, in the same short
 * transaction, so its snapshot (taken after the lock) sees every earlier lease, and the caps on what
 * is in flight per subscription and per tenant hold exactly. Nothing slow happens under it.
 */
export const LOCK_LEASING = sql<NoParams>(`
SELECT pg_advisory_xact_lock(hashtextextended('webhook_deliveries:lease', 0))`);

export interface LeaseParams {
  limit: number;
  leaseMs: number;
  subscriptionConcurrencyMax: number;
  tenantConcurrencyMax: number;
  breakerFailures: number;
}

/**
 * Takes due deliveries fairly and leases them (leased_until: no one else takes them meanwhile; a sender
 * that dies mid-request leaves them to be taken again when the lease ends).
 *
 * Fair: each subscription whose breaker is not open offers its oldest due deliveries, no more than its
 * room (the per-subscription cap less what it has in flight; one probe while its breaker is half open);
 * a tenant's offers are interleaved across its subscriptions (round robin) and cut at the tenant's
 * room; tenants are then served by what they already have in flight plus that rank, so a tenant with
 * nothing in flight goes first and a busy one cannot crowd the others out.
 *
 * The ranking uses window functions, which cannot share a SELECT level with FOR UPDATE: the chosen ids
 * are locked one level up, SKIP LOCKED (a row being recorded, redelivered or deleted is left alone),
 * and checked there again to be still due.
 */
export const LEASE_DUE = sql<LeaseParams, DueDelivery>(`
WITH leased AS (
  SELECT tenant_id, subscription_id, count(*) AS in_flight
    FROM webhook_deliveries
   WHERE leased_until > now()
   GROUP BY tenant_id, subscription_id
),
tenant_load AS (
  SELECT tenant_id, sum(in_flight) AS in_flight FROM leased GROUP BY tenant_id
),
open_subscriptions AS (
  SELECT s.tenant_id, s.id,
         CASE WHEN s.consecutive_failures >= :breakerFailures THEN 1 ELSE :subscriptionConcurrencyMax END
           - coalesce(l.in_flight, 0) AS room
    FROM webhook_subscriptions s
    LEFT JOIN leased l ON l.tenant_id = s.tenant_id AND l.subscription_id = s.id
   WHERE s.parked_until IS NULL OR s.parked_until <= now()
),
offered AS (
  SELECT o.tenant_id, due.id, due.next_attempt_at,
         row_number() OVER (PARTITION BY o.tenant_id, o.id ORDER BY due.next_attempt_at, due.id) AS in_subscription
    FROM open_subscriptions o
   CROSS JOIN LATERAL (
     SELECT d.id, d.next_attempt_at FROM webhook_deliveries d
      WHERE d.tenant_id = o.tenant_id AND d.subscription_id = o.id AND d.status = 'pending'
        AND d.next_attempt_at <= now() AND (d.leased_until IS NULL OR d.leased_until <= now())
      ORDER BY d.next_attempt_at, d.id
      LIMIT greatest(o.room, 0)) due
),
ranked AS (
  SELECT f.tenant_id, f.id, f.next_attempt_at, coalesce(t.in_flight, 0) AS tenant_in_flight,
         row_number() OVER (PARTITION BY f.tenant_id ORDER BY f.in_subscription, f.next_attempt_at, f.id) AS in_tenant
    FROM offered f
    LEFT JOIN tenant_load t ON t.tenant_id = f.tenant_id
),
chosen AS (
  SELECT tenant_id, id FROM ranked
   WHERE tenant_in_flight + in_tenant <= :tenantConcurrencyMax
   ORDER BY tenant_in_flight + in_tenant, next_attempt_at, id
   LIMIT :limit
),
locked AS (
  SELECT d.tenant_id, d.id FROM webhook_deliveries d
    JOIN chosen c ON c.tenant_id = d.tenant_id AND c.id = d.id
   WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND (d.leased_until IS NULL OR d.leased_until <= now())
     FOR UPDATE OF d SKIP LOCKED
)
UPDATE webhook_deliveries d
   SET leased_until = now() + make_interval(secs => :leaseMs::float8 / 1000)
  FROM locked, webhook_subscriptions s
 WHERE d.tenant_id = locked.tenant_id AND d.id = locked.id AND s.tenant_id = d.tenant_id AND s.id = d.subscription_id
RETURNING d.tenant_id, d.id, d.subscription_id, d.event_id, d.body, d.attempts, s.url, s.secret,
          CASE WHEN s.previous_secret_expires_at > now() THEN s.previous_secret END AS previous_secret`);

/** A success ends the lease and closes the subscription's breaker. */
export const RECORD_DELIVERED = sql<{ tenantId: string; id: string; responseStatus: number }>(`
WITH delivered AS (
  UPDATE webhook_deliveries
     SET status = 'delivered', attempts = attempts + 1, last_attempt_at = now(), delivered_at = now(),
         last_response_status = :responseStatus, last_error = NULL, leased_until = NULL
   WHERE tenant_id = :tenantId AND id = :id
  RETURNING tenant_id, subscription_id
)
UPDATE webhook_subscriptions s
   SET consecutive_failures = 0, parked_until = NULL
  FROM delivered
 WHERE s.tenant_id = delivered.tenant_id AND s.id = delivered.subscription_id
   AND (s.consecutive_failures > 0 OR s.parked_until IS NOT NULL)`);

export interface FailureParams {
  tenantId: string;
  id: string;
  responseStatus: number | null;
  error: string;
  retryInMs: number;
  attemptsMax: number;
  breakerFailures: number;
  breakerParkBaseMs: number;
  breakerParkCapMs: number;
}

/**
 * A failed attempt ends the lease: retried after `:retryInMs`, or dead-lettered when it was the last one
 * allowed. It counts against the subscription's breaker: from `:breakerFailures` failures in a row on,
 * the subscription is parked for the base time, doubled for each further failure, up to the cap.
 */
export const RECORD_FAILED = sql<FailureParams, { status: DeliveryStatus }>(`
WITH failed AS (
  UPDATE webhook_deliveries
     SET attempts = attempts + 1, last_attempt_at = now(), last_response_status = :responseStatus,
         last_error = :error, leased_until = NULL,
         status = CASE WHEN attempts + 1 >= :attemptsMax THEN 'dead' ELSE 'pending' END,
         next_attempt_at = now() + make_interval(secs => :retryInMs::float8 / 1000)
   WHERE tenant_id = :tenantId AND id = :id
  RETURNING tenant_id, subscription_id, status
),
breaker AS (
  UPDATE webhook_subscriptions s
     SET consecutive_failures = s.consecutive_failures + 1,
         parked_until = CASE
           WHEN s.consecutive_failures + 1 < :breakerFailures THEN s.parked_until
           ELSE now() + make_interval(secs => least(:breakerParkCapMs::float8, :breakerParkBaseMs::float8
                  * power(2, least(s.consecutive_failures + 1 - :breakerFailures, 40))) / 1000)
         END
    FROM failed
   WHERE s.tenant_id = failed.tenant_id AND s.id = failed.subscription_id
)
SELECT status FROM failed`);

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

/** One delivery per matching subscription; queuing an event again adds nothing. Counts those it wrote. */
export const ENQUEUE_DELIVERIES = sql<
  { tenantIds: string[]; ids: string[]; types: string[]; bodies: string[] },
  { written: number }
>(`
WITH written AS (
  INSERT INTO webhook_deliveries (tenant_id, id, subscription_id, event_id, event_type, body)
  SELECT s.tenant_id, gen_random_uuid(), s.id, e.id, e.type, e.body
    FROM unnest(:tenantIds::uuid[], :ids::uuid[], :types::text[], :bodies::text[]) AS e(tenant_id, id, type, body)
    JOIN webhook_subscriptions s
      ON s.tenant_id = e.tenant_id AND (cardinality(s.event_types) = 0 OR e.type = ANY (s.event_types))
  ON CONFLICT (tenant_id, subscription_id, event_id) DO NOTHING
  RETURNING 1
)
SELECT count(*)::int AS written FROM written`);

export const MARK_QUEUED = sql<{ tenantIds: string[]; ids: string[] }>(`
UPDATE outbox_events o
   SET webhooks_queued_at = now()
  FROM unnest(:tenantIds::uuid[], :ids::uuid[]) AS q(tenant_id, id)
 WHERE o.tenant_id = q.tenant_id AND o.id = q.id`);
