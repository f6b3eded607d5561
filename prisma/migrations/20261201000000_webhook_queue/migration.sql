-- Webhook deliveries are queued apart from the broker relay, so that a broker outage does not hold
-- webhooks back. The outbox has two consumers, each with its own mark: the relay sets published_at
-- once the broker has the event, the webhook queue sets webhooks_queued_at once the event's deliveries
-- (one per matching subscription) are written. An event is cleaned up only when both are done.
ALTER TABLE outbox_events ADD COLUMN webhooks_queued_at timestamptz;

-- Until now the relay queued an event's deliveries in the transaction that marked it published.
UPDATE outbox_events SET webhooks_queued_at = published_at WHERE published_at IS NOT NULL;

CREATE INDEX outbox_events_webhooks_unqueued_idx ON outbox_events (xid, position) WHERE webhooks_queued_at IS NULL;
