-- Fair webhook delivery: a delivery being sent is leased (leased_until) apart from when it is next due,
-- so a lease can count what is in flight per subscription and per tenant; and a circuit breaker per
-- subscription parks an endpoint that keeps failing.

ALTER TABLE webhook_deliveries ADD COLUMN leased_until timestamptz;

-- Until now a lease moved next_attempt_at past the request timeout; those rows are simply due then.

-- The lease takes each subscription's oldest due deliveries, and counts the leased ones.
CREATE INDEX webhook_deliveries_subscription_due_idx
  ON webhook_deliveries (tenant_id, subscription_id, next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_leased_idx
  ON webhook_deliveries (tenant_id, subscription_id) WHERE leased_until IS NOT NULL;

-- Failed attempts in a row (any success resets it), and until when nothing is sent (the breaker is open).
ALTER TABLE webhook_subscriptions
  ADD COLUMN consecutive_failures integer NOT NULL DEFAULT 0 CHECK (consecutive_failures >= 0),
  ADD COLUMN parked_until timestamptz;
