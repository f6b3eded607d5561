-- Ledger depth: holds and their resolutions, reversals, the hash-chained journal, balance snapshots.
-- Every resolution is a new immutable row; uniqueness in PostgreSQL makes "exactly once" a law.

-- A transaction is a posting ('posted'), a hold ('pending'), or the record that ended a hold without
-- capturing it ('voided', 'expired'). A capture is a 'posted' transaction that names its hold.
ALTER TABLE transactions DROP CONSTRAINT transactions_status_check;
ALTER TABLE transactions ADD CONSTRAINT transactions_status_check
  CHECK (status IN ('posted', 'pending', 'voided', 'expired'));
ALTER TABLE transactions
  ADD COLUMN hold_id uuid,
  ADD COLUMN reverses_id uuid,
  ADD COLUMN expires_at timestamptz,
  ADD CONSTRAINT transactions_hold_fk FOREIGN KEY (tenant_id, hold_id) REFERENCES transactions (tenant_id, id),
  ADD CONSTRAINT transactions_reverses_fk FOREIGN KEY (tenant_id, reverses_id) REFERENCES transactions (tenant_id, id),
  ADD CONSTRAINT transactions_expiry_only_on_holds CHECK ((status = 'pending') = (expires_at IS NOT NULL)),
  ADD CONSTRAINT transactions_resolution_names_hold CHECK (status NOT IN ('voided', 'expired') OR hold_id IS NOT NULL),
  ADD CONSTRAINT transactions_one_link CHECK (hold_id IS NULL OR reverses_id IS NULL);
-- A hold is resolved at most once (posted, voided or expired), and a transaction reversed at most once.
CREATE UNIQUE INDEX transactions_one_resolution_per_hold ON transactions (tenant_id, hold_id) WHERE hold_id IS NOT NULL;
CREATE UNIQUE INDEX transactions_one_reversal ON transactions (tenant_id, reverses_id) WHERE reverses_id IS NOT NULL;


-- A hold's entries reserve amounts (pending totals) and do not move posted balances.
ALTER TABLE entries ADD COLUMN pending boolean NOT NULL DEFAULT false;
CREATE INDEX transactions_metadata_idx ON transactions USING gin (metadata jsonb_path_ops);
CREATE INDEX accounts_metadata_idx ON accounts USING gin (metadata jsonb_path_ops);
CREATE INDEX entries_account_effective_idx ON entries (tenant_id, account_id, effective_at) WHERE NOT pending;

-- Holds not yet resolved: working state for the expiry job, deleted on resolution (the facts are
-- the hold and its resolution in transactions).
CREATE TABLE open_holds (
  tenant_id   uuid NOT NULL,
  hold_id     uuid NOT NULL,
  expires_at  timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, hold_id),
  FOREIGN KEY (tenant_id, hold_id) REFERENCES transactions (tenant_id, id)
);
CREATE INDEX open_holds_expiry_idx ON open_holds (expires_at);

-- The journal: each tenant has JOURNAL_STRIPES hash chains. A posting appends to whichever stripe is
-- free (FOR UPDATE SKIP LOCKED), so concurrent postings of one tenant do not queue on one row.
CREATE TABLE journal_heads (
  tenant_id  uuid NOT NULL REFERENCES tenants (id),
  stripe     smallint NOT NULL CHECK (stripe >= 0),
  seq        bigint NOT NULL CHECK (seq >= 0),
  hash       bytea NOT NULL CHECK (length(hash) = 32),
  PRIMARY KEY (tenant_id, stripe)
);

CREATE TABLE journal_links (
  tenant_id         uuid NOT NULL,
  stripe            smallint NOT NULL,
  seq               bigint NOT NULL CHECK (seq > 0),
  transaction_id    uuid NOT NULL,
  encoding_version  smallint NOT NULL,
  previous_hash     bytea NOT NULL CHECK (length(previous_hash) = 32),
  hash              bytea NOT NULL CHECK (length(hash) = 32),
  PRIMARY KEY (tenant_id, stripe, seq),
  UNIQUE (tenant_id, transaction_id),
  FOREIGN KEY (tenant_id, transaction_id) REFERENCES transactions (tenant_id, id),
  FOREIGN KEY (tenant_id, stripe) REFERENCES journal_heads (tenant_id, stripe)
);
-- Every tenant has its stripes from the start; 16 = JOURNAL_STRIPES in libs/ledger.
CREATE FUNCTION tenants_create_journal_heads() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO journal_heads (tenant_id, stripe, seq, hash)
  SELECT NEW.id, stripe, 0, decode(repeat('00', 32), 'hex') FROM generate_series(0, 15) AS stripe;
  RETURN NULL;
END $$;
CREATE TRIGGER tenants_journal_heads AFTER INSERT ON tenants
  FOR EACH ROW EXECUTE FUNCTION tenants_create_journal_heads();
INSERT INTO journal_heads (tenant_id, stripe, seq, hash)
SELECT t.id, stripe, 0, decode(repeat('00', 32), 'hex') FROM tenants t, generate_series(0, 15) AS stripe;

-- At commit: postings and holds have entries (void and expiry records carry none), and every
-- transaction is linked into the journal.
CREATE OR REPLACE FUNCTION transactions_assert_has_entries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IN ('posted', 'pending') AND NOT EXISTS (
       SELECT 1 FROM entries e WHERE e.tenant_id = NEW.tenant_id AND e.transaction_id = NEW.id) THEN
    RAISE EXCEPTION 'transaction % has no entries', NEW.id USING ERRCODE = 'LG001';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM journal_links j WHERE j.tenant_id = NEW.tenant_id AND j.transaction_id = NEW.id) THEN
    RAISE EXCEPTION 'transaction % is not linked into the journal', NEW.id USING ERRCODE = 'LG003';
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER journal_links_append_only BEFORE UPDATE OR DELETE ON journal_links
  FOR EACH ROW EXECUTE FUNCTION ledger_forbid_change();
CREATE TRIGGER journal_links_no_truncate BEFORE TRUNCATE ON journal_links
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_forbid_change();

-- Point-in-time balances: the posted totals of an account from entries effective before `as_of`,
-- written only for days that can no longer change (older than the back-dating window).
CREATE TABLE balance_snapshots (
  tenant_id       uuid NOT NULL,
  account_id      uuid NOT NULL,
  as_of           timestamptz NOT NULL,
  posted_debits   bigint NOT NULL CHECK (posted_debits >= 0),
  posted_credits  bigint NOT NULL CHECK (posted_credits >= 0),
  PRIMARY KEY (tenant_id, account_id, as_of),
  FOREIGN KEY (tenant_id, account_id) REFERENCES accounts (tenant_id, id)
);

-- Locks what a posting needs, in one round trip: its accounts, in id order, with transaction-scoped
-- advisory locks (then a fresh read of them), and one of the tenant's journal stripes that no other
-- transaction holds (or, if all are busy, waits for the one at p_stripe_start).
-- Advisory locks need no transaction id, so a posting gets its xid only with the stripe's row lock,
-- after its account locks: for any two postings that share an account, xid order is commit order,
-- and the outbox feed (ordered by xid) lists them as they committed. As a volatile function, each of
-- its statements takes a fresh snapshot, so the reads see what the previous lock holder committed.
CREATE FUNCTION ledger_lock_for_posting(p_tenant_id uuid, p_ids uuid[], p_codes text[], p_stripe_start integer)
RETURNS TABLE (id uuid, code text, currency text, normal_balance text, allow_negative boolean,
               posted_debits bigint, posted_credits bigint, pending_debits bigint, pending_credits bigint,
               version bigint, stripe smallint, stripe_seq bigint, stripe_hash bytea)
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  account_id uuid;
  head record;
BEGIN
  FOR account_id IN
    SELECT a.id FROM accounts a
     WHERE a.tenant_id = p_tenant_id AND (a.id = ANY (p_ids) OR a.code = ANY (p_codes))
     ORDER BY a.id
  LOOP
    PERFORM pg_advisory_xact_lock(hashtextextended(p_tenant_id::text || ':account:' || account_id::text, 0));
  END LOOP;
  IF account_id IS NULL THEN
    RETURN;
  END IF;
  SELECT h.stripe, h.seq, h.hash INTO head FROM journal_heads h
   WHERE h.tenant_id = p_tenant_id
   ORDER BY (h.stripe + p_stripe_start) % 16
   LIMIT 1
     FOR UPDATE SKIP LOCKED;
  IF NOT FOUND THEN
    SELECT h.stripe, h.seq, h.hash INTO head FROM journal_heads h
     WHERE h.tenant_id = p_tenant_id AND h.stripe = p_stripe_start % 16
       FOR UPDATE;
  END IF;
  RETURN QUERY
    SELECT a.id, a.code, a.currency::text, a.normal_balance, a.allow_negative, a.posted_debits, a.posted_credits,
           a.pending_debits, a.pending_credits, a.version, head.stripe, head.seq, head.hash
      FROM accounts a
     WHERE a.tenant_id = p_tenant_id AND (a.id = ANY (p_ids) OR a.code = ANY (p_codes))
     ORDER BY a.id;
END $$;
