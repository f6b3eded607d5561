// Webhook subscriptions and their delivery queue.

export const SUBSCRIPTION_COLUMNS = `id, url, event_types, created_at, previous_secret_expires_at`;

export const INSERT_SUBSCRIPTION = `
INSERT INTO webhook_subscriptions (tenant_id, id, url, event_types, secret)
VALUES ($1, $2, $3, $4, $5)
RETURNING ${SUBSCRIPTION_COLUMNS}`;

export const LIST_SUBSCRIPTIONS = `
SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions
 WHERE tenant_id = $1 AND ($2::uuid IS NULL OR id > $2)
 ORDER BY id LIMIT $3`;

export const GET_SUBSCRIPTION = `SELECT ${SUBSCRIPTION_COLUMNS} FROM webhook_subscriptions WHERE tenant_id = $1 AND id = $2`;

export const DELETE_SUBSCRIPTION = `DELETE FROM webhook_subscriptions WHERE tenant_id = $1 AND id = $2 RETURNING id`;

/** The current secret becomes the previous one, signing beside the new one until the grace ends. */
export const ROTATE_SECRET = `
UPDATE webhook_subscriptions
   SET previous_secret = secret, previous_secret_expires_at = now() + make_interval(hours => $4), secret = $3
 WHERE tenant_id = $1 AND id = $2
RETURNING ${SUBSCRIPTION_COLUMNS}`;

export const DELIVERY_COLUMNS = `id, event_id, event_type, status, attempts, next_attempt_at, last_attempt_at, last_response_status, last_error, delivered_at, created_at`;

export const LIST_DELIVERIES = `
SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries
 WHERE tenant_id = $1 AND subscription_id = $2 AND ($3::text IS NULL OR status = $3)
   AND ($4::timestamptz IS NULL OR (created_at, id) < ($4, $5::uuid))
 ORDER BY created_at DESC, id DESC LIMIT $6`;

/** Manual redelivery: back to the queue with a fresh attempt budget, due now. */
export const REDELIVER = `
UPDATE webhook_deliveries
   SET status = 'pending', attempts = 0, next_attempt_at = now(), delivered_at = NULL
 WHERE tenant_id = $1 AND subscription_id = $2 AND id = $3
RETURNING ${DELIVERY_COLUMNS}`;

/**
 * Takes due deliveries with what signing them needs, and leases them: their next attempt moves past
 * the request timeout, so no other sender takes them meanwhile, and a sender that dies mid-request
 * leaves them to be retried when the lease ends. One short statement: no transaction stays open
 * while an endpoint is slow (an open transaction would also hold back the event feed's fence).
 */
export const LEASE_DUE = `
WITH due AS (
  SELECT tenant_id, id FROM webhook_deliveries
   WHERE status = 'pending' AND next_attempt_at <= now()
   ORDER BY next_attempt_at
   LIMIT $1
     FOR UPDATE SKIP LOCKED
)
UPDATE webhook_deliveries d
   SET next_attempt_at = now() + make_interval(secs => $2::float8 / 1000)
  FROM due, webhook_subscriptions s
 WHERE d.tenant_id = due.tenant_id AND d.id = due.id AND s.tenant_id = d.tenant_id AND s.id = d.subscription_id
RETURNING d.tenant_id, d.id, d.event_id, d.body, d.attempts, s.url, s.secret,
          CASE WHEN s.previous_secret_expires_at > now() THEN s.previous_secret END AS previous_secret`;

export const RECORD_DELIVERED = `
UPDATE webhook_deliveries
   SET status = 'delivered', attempts = attempts + 1, last_attempt_at = now(), delivered_at = now(),
       last_response_status = $3, last_error = NULL
 WHERE tenant_id = $1 AND id = $2`;

/** A failed attempt: retried after `$5` ms, or dead-lettered when it was the last one allowed. */
export const RECORD_FAILED = `
UPDATE webhook_deliveries
   SET attempts = attempts + 1, last_attempt_at = now(), last_response_status = $3, last_error = $4,
       status = CASE WHEN attempts + 1 >= $6 THEN 'dead' ELSE 'pending' END,
       next_attempt_at = now() + make_interval(secs => $5::float8 / 1000)
 WHERE tenant_id = $1 AND id = $2
RETURNING status`;

/** Deliveries per status across tenants, and how many pending ones have failed at least once. */
export const DELIVERY_STATISTICS = `
SELECT status, count(*)::int8 AS deliveries, count(*) FILTER (WHERE attempts > 0)::int8 AS failed_before
  FROM webhook_deliveries GROUP BY status`;

/** Delivered rows are kept as long as published events; dead letters until someone redelivers them. */
export const DELETE_DELIVERED_BEFORE = `
DELETE FROM webhook_deliveries
 WHERE (tenant_id, id) IN (SELECT tenant_id, id FROM webhook_deliveries
                            WHERE status = 'delivered' AND delivered_at < $1
                            LIMIT $2)
RETURNING id`;

// The webhook queue: the outbox's second consumer beside the broker relay (see migration webhook_queue).
// Claimed events stay locked until the queue's transaction ends, so several workers share the work.
export const CLAIM_UNQUEUED_EVENTS = `
SELECT id, type, tenant_id, aggregate_id, aggregate_version, occurred_at, data, xid::text AS xid, position
  FROM outbox_events
 WHERE webhooks_queued_at IS NULL
 ORDER BY xid, position
 LIMIT $1
   FOR UPDATE SKIP LOCKED`;

/** One delivery per matching subscription; queuing an event again adds nothing. */
export const ENQUEUE_DELIVERIES = `
INSERT INTO webhook_deliveries (tenant_id, id, subscription_id, event_id, event_type, body)
SELECT s.tenant_id, gen_random_uuid(), s.id, e.id, e.type, e.body
  FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[]) AS e(tenant_id, id, type, body)
  JOIN webhook_subscriptions s
    ON s.tenant_id = e.tenant_id AND (cardinality(s.event_types) = 0 OR e.type = ANY (s.event_types))
ON CONFLICT (tenant_id, subscription_id, event_id) DO NOTHING`;

export const MARK_QUEUED = `
UPDATE outbox_events o
   SET webhooks_queued_at = now()
  FROM unnest($1::uuid[], $2::uuid[]) AS q(tenant_id, id)
 WHERE o.tenant_id = q.tenant_id AND o.id = q.id`;
