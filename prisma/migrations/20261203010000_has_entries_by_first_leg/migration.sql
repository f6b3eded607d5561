-- transactions_assert_has_entries, the same law, looked up by the whole key of entries_pkey: a
-- transaction's entries are its legs 0..n-1 (the posting engine writes no others), so it has entries
-- exactly when it has leg 0. By (tenant, transaction) alone, the plan depended on the statistics: once
-- ANALYZE had seen the few wide transactions that fund a new ledger's wallets, PostgreSQL expected
-- hundreds of entries per transaction and checked each commit with a sequential scan of all entries
-- (measured on the posting bench: 3.6 ms of PostgreSQL CPU per posting instead of 0.9, and growing with
-- the table). One unique key, one index probe, whatever the statistics say.
CREATE OR REPLACE FUNCTION transactions_assert_has_entries() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IN ('posted', 'pending') AND NOT EXISTS (
       SELECT 1 FROM entries e WHERE e.tenant_id = NEW.tenant_id AND e.transaction_id = NEW.id AND e.leg = 0) THEN
    RAISE EXCEPTION 'transaction % has no entries', NEW.id USING ERRCODE = 'LG001';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM journal_links j WHERE j.tenant_id = NEW.tenant_id AND j.transaction_id = NEW.id) THEN
    RAISE EXCEPTION 'transaction % is not linked into the journal', NEW.id USING ERRCODE = 'LG003';
  END IF;
  RETURN NULL;
END $$;
