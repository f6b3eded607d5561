-- Ledger core: tenants, API keys, accounts, transactions, entries, idempotency keys, outbox.
-- The laws of the ledger live here, so that neither an application bug nor a person with psql can
-- break the books silently. Every key and foreign key carries tenant_id (sharding by tenant later).

CREATE TABLE tenants (
  id          uuid PRIMARY KEY,
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  tenant_id    uuid NOT NULL REFERENCES tenants (id),
  id           uuid NOT NULL,
  name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  secret_hash  bytea NOT NULL CHECK (length(secret_hash) = 32),
  roles        text[] NOT NULL CHECK (roles <@ ARRAY['admin', 'poster', 'finance', 'auditor']
                                      AND cardinality(roles) > 0),
  created_at   timestamptz NOT NULL DEFAULT now(),
  revoked_at   timestamptz,
  PRIMARY KEY (tenant_id, id)
);

CREATE TABLE accounts (
  tenant_id        uuid NOT NULL REFERENCES tenants (id),
  id               uuid NOT NULL,
  code             text NOT NULL CHECK (code ~ '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$'),
  name             text,
  currency         char(3) NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  normal_balance   text NOT NULL CHECK (normal_balance IN ('debit', 'credit')),
  allow_negative   boolean NOT NULL,
  metadata         jsonb NOT NULL DEFAULT '{}',
  posted_debits    bigint NOT NULL DEFAULT 0 CHECK (posted_debits >= 0),
  posted_credits   bigint NOT NULL DEFAULT 0 CHECK (posted_credits >= 0),
  pending_debits   bigint NOT NULL DEFAULT 0 CHECK (pending_debits >= 0),
  pending_credits  bigint NOT NULL DEFAULT 0 CHECK (pending_credits >= 0),
  version          bigint NOT NULL DEFAULT 0 CHECK (version >= 0),
  created_at       timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, code),
  -- Target of the entries' foreign key, so an entry's currency must be its account's currency.
  UNIQUE (tenant_id, id, currency),
  -- available = posted - pending outflows; an account without allow_negative never goes below zero.
  CONSTRAINT accounts_available_non_negative CHECK (
    allow_negative OR CASE normal_balance
      WHEN 'credit' THEN posted_credits - posted_debits - pending_debits
      ELSE posted_debits - posted_credits - pending_credits
    END >= 0
  )
);

CREATE TABLE transactions (
  tenant_id       uuid NOT NULL REFERENCES tenants (id),
  id              uuid NOT NULL,
  status          text NOT NULL CHECK (status IN ('posted', 'pending')),
  external_ref    text CHECK (length(external_ref) BETWEEN 1 AND 255),
  -- SHA-256 of the canonical request content: the same externalRef with other content is a conflict.
  content_hash    bytea NOT NULL CHECK (length(content_hash) = 32),
  description     text CHECK (length(description) <= 1000),
  metadata        jsonb NOT NULL DEFAULT '{}',
  effective_at    timestamptz NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, external_ref)
);
CREATE INDEX transactions_created_idx ON transactions (tenant_id, created_at DESC, id DESC);

CREATE TABLE entries (
  tenant_id              uuid NOT NULL,
  transaction_id         uuid NOT NULL,
  leg                    smallint NOT NULL CHECK (leg >= 0),
  account_id             uuid NOT NULL,
  direction              text NOT NULL CHECK (direction IN ('debit', 'credit')),
  amount_minor           bigint NOT NULL CHECK (amount_minor > 0),
  currency               char(3) NOT NULL,
  -- The account's version and posted balance right after this entry (written under the account lock).
  account_version        bigint NOT NULL CHECK (account_version > 0),
  posted_balance_after   bigint NOT NULL,
  effective_at           timestamptz NOT NULL,
  created_at             timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, transaction_id, leg),
  UNIQUE (tenant_id, account_id, account_version),
  FOREIGN KEY (tenant_id, transaction_id) REFERENCES transactions (tenant_id, id),
  FOREIGN KEY (tenant_id, account_id, currency) REFERENCES accounts (tenant_id, id, currency)
);

-- Posted facts are append-only.
CREATE FUNCTION ledger_forbid_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % is not allowed', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'LG002', HINT = 'Correct a posted transaction with a reversal.';
END $$;

CREATE TRIGGER entries_append_only BEFORE UPDATE OR DELETE ON entries
  FOR EACH ROW EXECUTE FUNCTION ledger_forbid_change();
CREATE TRIGGER entries_no_truncate BEFORE TRUNCATE ON entries
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_forbid_change();
CREATE TRIGGER transactions_append_only BEFORE UPDATE OR DELETE ON transactions
  FOR EACH ROW EXECUTE FUNCTION ledger_forbid_change();
CREATE TRIGGER transactions_no_truncate BEFORE TRUNCATE ON transactions
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_forbid_change();

-- Zero-sum per transaction and currency, checked over each INSERT statement's new rows: the entries
-- of a transaction arrive in one statement (or in statements that each balance on their own).
CREATE FUNCTION entries_assert_zero_sum() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  unbalanced record;
BEGIN
  SELECT e.transaction_id, e.currency,
         sum(CASE e.direction WHEN 'debit' THEN e.amount_minor ELSE -e.amount_minor END) AS net
    INTO unbalanced
    FROM new_entries e
   GROUP BY e.tenant_id, e.transaction_id, e.currency
  HAVING sum(CASE e.direction WHEN 'debit' THEN e.amount_minor ELSE -e.amount_minor END) <> 0
   LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'transaction % does not balance in %: debits - credits = %',
      unbalanced.transaction_id, unbalanced.currency, unbalanced.net
      USING ERRCODE = 'LG001';
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER entries_zero_sum AFTER INSERT ON entries
  REFERENCING NEW TABLE AS new_entries
  FOR EACH STATEMENT EXECUTE FUNCTION entries_assert_zero_sum();

-- A transaction without entries is not a transaction: checked at commit.
CREATE FUNCTION transactions_assert_has_entries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM entries e
                  WHERE e.tenant_id = NEW.tenant_id AND e.transaction_id = NEW.id) THEN
    RAISE EXCEPTION 'transaction % has no entries', NEW.id USING ERRCODE = 'LG001';
  END IF;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER transactions_have_entries AFTER INSERT ON transactions
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION transactions_assert_has_entries();

CREATE TABLE idempotency_keys (
  tenant_id        uuid NOT NULL REFERENCES tenants (id),
  key              text NOT NULL CHECK (length(key) BETWEEN 1 AND 255),
  fingerprint      bytea NOT NULL CHECK (length(fingerprint) = 32),
  state            text NOT NULL CHECK (state IN ('completed', 'failed')),
  response_status  integer NOT NULL,
  -- json, not jsonb: stored and replayed as written, without the cost of a binary conversion.
  response_body    json NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  expires_at       timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, key)
);
CREATE INDEX idempotency_keys_expiry_idx ON idempotency_keys (expires_at);
-- Stored uncompressed: compressing a large response (a batch of 1000) would cost CPU while the
-- request still holds its account locks; the rows live a day.
ALTER TABLE idempotency_keys ALTER COLUMN response_body SET STORAGE EXTERNAL;

-- Transactional outbox. Readers page by (xid, position) and only up to the oldest transaction still
-- running, so a row committed late can never appear behind a cursor that has already passed it.
CREATE TABLE outbox_events (
  tenant_id          uuid NOT NULL REFERENCES tenants (id),
  id                 uuid NOT NULL,
  position           bigint GENERATED ALWAYS AS IDENTITY,
  xid                xid8 NOT NULL DEFAULT pg_current_xact_id(),
  type               text NOT NULL,
  aggregate_type     text NOT NULL,
  aggregate_id       uuid NOT NULL,
  aggregate_version  bigint NOT NULL,
  occurred_at        timestamptz NOT NULL DEFAULT now(),
  data               json NOT NULL,
  published_at       timestamptz,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX outbox_events_feed_idx ON outbox_events (tenant_id, xid, position);
CREATE INDEX outbox_events_unpublished_idx ON outbox_events (xid, position) WHERE published_at IS NULL;
