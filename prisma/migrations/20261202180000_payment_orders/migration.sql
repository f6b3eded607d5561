-- Payment orders: money that leaves through a payment provider, as a persisted saga (libs/payments).
-- The order row is the saga's state; each transition updates it in one short transaction together with
-- its step (append-only) and its outbox event. The ledger side of each step is an ordinary posting.

-- A payment provider the tenant pays through. Its webhook endpoint is /v1/connectors/<id>/webhooks:
-- the id finds the connector (UUIDv7; the index is not unique so that every unique key keeps tenant_id).
CREATE TABLE payment_connectors (
  tenant_id                uuid NOT NULL REFERENCES tenants (id),
  id                       uuid NOT NULL,
  name                     text NOT NULL CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$'),
  kind                     text NOT NULL CHECK (kind IN ('http')),
  base_url                 text NOT NULL CHECK (base_url ~ '^https?://' AND length(base_url) <= 2048),
  secret                   text NOT NULL CHECK (length(secret) BETWEEN 8 AND 512),
  webhook_secret           text NOT NULL CHECK (length(webhook_secret) BETWEEN 8 AND 512),
  clearing_account_id      uuid NOT NULL,
  request_timeout_ms       integer NOT NULL CHECK (request_timeout_ms BETWEEN 100 AND 120000),
  submit_deadline_seconds  integer NOT NULL CHECK (submit_deadline_seconds > 0),
  settle_deadline_seconds  integer NOT NULL CHECK (settle_deadline_seconds > 0),
  actor                    text NOT NULL,
  created_at               timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, name),
  FOREIGN KEY (tenant_id, clearing_account_id) REFERENCES accounts (tenant_id, id)
);
CREATE INDEX payment_connectors_id_idx ON payment_connectors (id);

CREATE TABLE payment_orders (
  tenant_id              uuid NOT NULL,
  id                     uuid NOT NULL,
  connector_id           uuid NOT NULL,
  direction              text NOT NULL CHECK (direction IN ('payout', 'refund')),
  source_account_id      uuid NOT NULL,
  amount_minor           bigint NOT NULL CHECK (amount_minor > 0),
  currency               char(3) NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  counterparty           jsonb NOT NULL,
  external_ref           text,
  description            text,
  metadata               jsonb NOT NULL DEFAULT '{}',
  status                 text NOT NULL CHECK (status IN
                           ('reserved', 'submitting', 'submitted', 'settled', 'returned', 'rejected', 'cancelled')),
  version                integer NOT NULL DEFAULT 1,
  hold_id                uuid NOT NULL,
  settle_transaction_id  uuid,
  return_transaction_id  uuid,
  provider_payment_id    text,
  provider_status        text,
  -- The provider calls made for the current step; the backoff grows with it.
  attempts               integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  -- When a worker looks at the order next (a claim pushes it out by a lease); NULL when nothing is due.
  next_attempt_at        timestamptz,
  -- When the current step must be done by; past it the order is stuck (a ticket). NULL once final.
  deadline_at            timestamptz,
  last_error             text,
  actor                  text NOT NULL,
  created_at             timestamptz NOT NULL DEFAULT now(),
  updated_at             timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, external_ref),
  FOREIGN KEY (tenant_id, connector_id) REFERENCES payment_connectors (tenant_id, id),
  FOREIGN KEY (tenant_id, source_account_id) REFERENCES accounts (tenant_id, id),
  FOREIGN KEY (tenant_id, hold_id) REFERENCES transactions (tenant_id, id),
  FOREIGN KEY (tenant_id, settle_transaction_id) REFERENCES transactions (tenant_id, id),
  FOREIGN KEY (tenant_id, return_transaction_id) REFERENCES transactions (tenant_id, id),
  -- The ledger side of each state: settled and returned orders name their postings.
  CONSTRAINT payment_orders_settled_posting CHECK (
    (status IN ('settled', 'returned')) = (settle_transaction_id IS NOT NULL)),
  CONSTRAINT payment_orders_returned_posting CHECK ((status = 'returned') = (return_transaction_id IS NOT NULL)),
  CONSTRAINT payment_orders_final_is_quiet CHECK (
    status NOT IN ('returned', 'rejected', 'cancelled') OR (next_attempt_at IS NULL AND deadline_at IS NULL))
);
CREATE INDEX payment_orders_due_idx ON payment_orders (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
CREATE INDEX payment_orders_list_idx ON payment_orders (tenant_id, id DESC);
CREATE INDEX payment_orders_status_idx ON payment_orders (tenant_id, status, id DESC);
CREATE INDEX payment_orders_deadline_idx ON payment_orders (tenant_id, deadline_at) WHERE deadline_at IS NOT NULL;

-- What each step did and what the provider answered: the order's timeline and a stuck ticket's evidence.
CREATE TABLE payment_order_steps (
  tenant_id     uuid NOT NULL,
  order_id      uuid NOT NULL,
  seq           integer NOT NULL CHECK (seq > 0),
  step          text NOT NULL CHECK (step IN ('reserve', 'submit', 'status', 'settle', 'reject', 'cancel', 'return')),
  outcome       text NOT NULL CHECK (outcome IN ('done', 'unknown', 'refused', 'not_found', 'pending', 'failed')),
  status_after  text NOT NULL,
  detail        jsonb NOT NULL DEFAULT '{}',
  actor         text NOT NULL,
  at            timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, order_id, seq),
  FOREIGN KEY (tenant_id, order_id) REFERENCES payment_orders (tenant_id, id)
);
CREATE TRIGGER payment_order_steps_append_only BEFORE UPDATE OR DELETE ON payment_order_steps
  FOR EACH ROW EXECUTE FUNCTION ledger_forbid_change();
CREATE TRIGGER payment_order_steps_no_truncate BEFORE TRUNCATE ON payment_order_steps
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_forbid_change();

-- A stuck order is a ticket of its own kind.
ALTER TABLE discrepancies DROP CONSTRAINT discrepancies_kind_check;
ALTER TABLE discrepancies ADD CONSTRAINT discrepancies_kind_check CHECK (kind IN ('missing_in_ledger',
  'missing_in_statement', 'amount_mismatch', 'duplicate', 'currency_mismatch', 'ambiguous_match',
  'invariant_violation', 'stale_hold', 'balance_continuity', 'stuck_payment_order'));
