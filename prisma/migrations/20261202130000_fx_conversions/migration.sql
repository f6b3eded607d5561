-- Currency conversions. A quote holds a rate for a time and is used by at most one conversion: the
-- conversion sets used_by_transaction_id in the same database transaction as its posting, once.
CREATE TABLE fx_quotes (
  tenant_id              uuid NOT NULL REFERENCES tenants (id),
  id                     uuid NOT NULL,
  from_currency          char(3) NOT NULL,
  to_currency            char(3) NOT NULL CHECK (to_currency <> from_currency),
  -- The rate as the client wrote it (units of `to` per unit of `from`): exact text, never a float.
  rate                   text NOT NULL CHECK (rate ~ '^[0-9]+(\.[0-9]+)?$'),
  actor                  text NOT NULL,
  created_at             timestamptz NOT NULL DEFAULT now(),
  expires_at             timestamptz NOT NULL CHECK (expires_at > created_at),
  used_by_transaction_id uuid,
  used_at                timestamptz,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, used_by_transaction_id) REFERENCES transactions (tenant_id, id),
  CONSTRAINT fx_quotes_used_together CHECK ((used_by_transaction_id IS NULL) = (used_at IS NULL))
);
CREATE UNIQUE INDEX fx_quotes_used_once ON fx_quotes (tenant_id, used_by_transaction_id)
  WHERE used_by_transaction_id IS NOT NULL;

-- A quote is used once: the only change allowed is from unused to used.
CREATE FUNCTION fx_quotes_use_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR OLD.used_by_transaction_id IS NOT NULL OR NEW.used_by_transaction_id IS NULL
     OR (NEW.tenant_id, NEW.id, NEW.from_currency, NEW.to_currency, NEW.rate, NEW.actor, NEW.created_at,
         NEW.expires_at)
        IS DISTINCT FROM
        (OLD.tenant_id, OLD.id, OLD.from_currency, OLD.to_currency, OLD.rate, OLD.actor, OLD.created_at,
         OLD.expires_at) THEN
    RAISE EXCEPTION 'fx_quotes: a quote is only ever marked used, once (%)', TG_OP USING ERRCODE = 'LG002';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER fx_quotes_use_once BEFORE UPDATE OR DELETE ON fx_quotes
  FOR EACH ROW EXECUTE FUNCTION fx_quotes_use_once();
CREATE TRIGGER fx_quotes_no_truncate BEFORE TRUNCATE ON fx_quotes
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_forbid_change();

-- One row per conversion, written with its transaction: what the position report sums. The amounts are
-- the transaction's own (its from and to legs); the rate, rounding and remainder are also in its metadata.
CREATE TABLE fx_conversions (
  tenant_id         uuid NOT NULL,
  transaction_id    uuid NOT NULL,
  from_currency     char(3) NOT NULL,
  to_currency       char(3) NOT NULL CHECK (to_currency <> from_currency),
  from_amount_minor bigint NOT NULL CHECK (from_amount_minor > 0),
  to_amount_minor   bigint NOT NULL CHECK (to_amount_minor > 0),
  rate              text NOT NULL CHECK (rate ~ '^[0-9]+(\.[0-9]+)?$'),
  rounding          text NOT NULL CHECK (rounding IN ('half-even', 'half-up', 'down')),
  quote_id          uuid,
  PRIMARY KEY (tenant_id, transaction_id),
  FOREIGN KEY (tenant_id, transaction_id) REFERENCES transactions (tenant_id, id),
  FOREIGN KEY (tenant_id, quote_id) REFERENCES fx_quotes (tenant_id, id)
);
CREATE INDEX fx_conversions_pair_idx ON fx_conversions (tenant_id, from_currency, to_currency);

CREATE TRIGGER fx_conversions_append_only BEFORE UPDATE OR DELETE ON fx_conversions
  FOR EACH ROW EXECUTE FUNCTION ledger_forbid_change();
CREATE TRIGGER fx_conversions_no_truncate BEFORE TRUNCATE ON fx_conversions
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_forbid_change();
