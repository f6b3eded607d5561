-- Event delivery: the outbox relay, webhook subscriptions and their delivery queue.

-- The relay publishes an event only when no earlier event of its aggregate is still unpublished;
-- this index answers that question, and the published one lets the cleanup find old rows.
CREATE INDEX outbox_events_unpublished_aggregate_idx
  ON outbox_events (tenant_id, aggregate_id, xid, position) WHERE published_at IS NULL;
CREATE INDEX outbox_events_published_idx ON outbox_events (published_at) WHERE published_at IS NOT NULL;

-- A tenant's webhook endpoint. The secret must be readable to sign requests; after a rotation the
-- previous secret keeps signing too (a second v1 signature) until previous_secret_expires_at.
CREATE TABLE webhook_subscriptions (
  tenant_id                   uuid NOT NULL REFERENCES tenants (id),
  id                          uuid NOT NULL,
  url                         text NOT NULL CHECK (length(url) BETWEEN 1 AND 2048),
  event_types                 text[] NOT NULL,  -- empty: every event type
  secret                      text NOT NULL CHECK (length(secret) >= 32),
  previous_secret             text,
  previous_secret_expires_at  timestamptz,
  created_at                  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  CHECK ((previous_secret IS NULL) = (previous_secret_expires_at IS NULL))
);

-- One row per (subscription, event): written by the relay in the transaction that marks the event
-- published, so each event is queued once per subscription. The body is kept as sent (it is signed,
-- and the outbox row may be cleaned up before a slow endpoint recovers).
CREATE TABLE webhook_deliveries (
  tenant_id             uuid NOT NULL,
  id                    uuid NOT NULL,
  subscription_id       uuid NOT NULL,
  event_id              uuid NOT NULL,
  event_type            text NOT NULL,
  body                  text NOT NULL,
  status                text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'dead')),
  attempts              integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at       timestamptz NOT NULL DEFAULT now(),
  last_attempt_at       timestamptz,
  last_response_status  integer,
  last_error            text,
  delivered_at          timestamptz,
  created_at            timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, subscription_id, event_id),
  FOREIGN KEY (tenant_id, subscription_id) REFERENCES webhook_subscriptions (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_subscription_idx ON webhook_deliveries (tenant_id, subscription_id, created_at DESC, id DESC);
