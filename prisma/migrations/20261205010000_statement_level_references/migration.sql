-- The references of the four tables every posting writes, checked once per statement instead of once
-- per row. A declared foreign key runs one check per inserted row, each a query of its own that also
-- locks the referenced row (FOR KEY SHARE: on the tenant's row, every concurrent posting shares one
-- lock). A batch of 100 transfers ran about 800 of them while it held its accounts' locks, a third of
-- the time its writing statement took (test/bench/README.md, "What limits batches").
--
-- The laws stay the same and stay keyed by tenant_id:
--   transactions (tenant_id) -> tenants; (tenant_id, hold_id) and (tenant_id, reverses_id) -> transactions
--   entries (tenant_id, transaction_id) -> transactions; (tenant_id, account_id, currency) -> accounts
--     (an entry's currency is its account's)
--   journal_links (tenant_id, transaction_id) -> transactions; (tenant_id, stripe) -> journal_heads
--   outbox_events (tenant_id) -> tenants
-- Each is an AFTER INSERT trigger FOR EACH STATEMENT over the statement's new rows (the rows a
-- statement's other parts wrote, as a posting's CTEs do, are visible to it), and a violation is raised
-- as PostgreSQL raises a foreign key's: SQLSTATE 23503 and the constraint's old name.
--
-- What the row locks did instead: they kept a referenced row from being deleted, or its key changed,
-- before the referencing transaction committed. Here the referenced rows can never be deleted or
-- have their key changed at all (transactions are append-only already; tenants, accounts and journal
-- heads refuse it below), so a row the check has seen stays for good.

ALTER TABLE transactions DROP CONSTRAINT transactions_tenant_id_fkey,
                         DROP CONSTRAINT transactions_hold_fk,
                         DROP CONSTRAINT transactions_reverses_fk;
ALTER TABLE entries DROP CONSTRAINT entries_tenant_id_transaction_id_fkey,
                    DROP CONSTRAINT entries_tenant_id_account_id_currency_fkey;
ALTER TABLE journal_links DROP CONSTRAINT journal_links_tenant_id_transaction_id_fkey,
                          DROP CONSTRAINT journal_links_tenant_id_stripe_fkey;
ALTER TABLE outbox_events DROP CONSTRAINT outbox_events_tenant_id_fkey;

CREATE FUNCTION ledger_missing_reference(from_table text, constraint_name text, key_columns text,
                                         key_values text, to_table text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'insert or update on table "%" violates foreign key constraint "%"', from_table, constraint_name
    USING ERRCODE = 'foreign_key_violation', CONSTRAINT = constraint_name, TABLE = from_table,
          DETAIL = format('Key (%s)=(%s) is not present in table "%s".', key_columns, key_values, to_table);
END $$;

-- Each check probes the referenced table's unique key once per distinct key, as a subquery per row:
-- an index probe whatever the statistics say (an anti-join planned while a table looked small could
-- scan it whole for every posting).
CREATE FUNCTION transactions_assert_references() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  missing record;
BEGIN
  SELECT n.tenant_id INTO missing
    FROM (SELECT DISTINCT tenant_id FROM new_transactions) n
   WHERE (SELECT true FROM tenants t WHERE t.id = n.tenant_id) IS NULL
   LIMIT 1;
  IF FOUND THEN
    PERFORM ledger_missing_reference('transactions', 'transactions_tenant_id_fkey', 'tenant_id',
                                     missing.tenant_id::text, 'tenants');
  END IF;
  -- The transaction a hold's resolution resolves and the one a reversal reverses, in one pass.
  SELECT n.tenant_id, r.key_column, r.constraint_name, r.id INTO missing
    FROM new_transactions n
   CROSS JOIN LATERAL (VALUES ('hold_id', 'transactions_hold_fk', n.hold_id),
                              ('reverses_id', 'transactions_reverses_fk', n.reverses_id))
         AS r(key_column, constraint_name, id)
   WHERE r.id IS NOT NULL
     AND (SELECT true FROM transactions t WHERE t.tenant_id = n.tenant_id AND t.id = r.id) IS NULL
   LIMIT 1;
  IF FOUND THEN
    PERFORM ledger_missing_reference('transactions', missing.constraint_name, 'tenant_id, ' || missing.key_column,
                                     missing.tenant_id || ', ' || missing.id, 'transactions');
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER transactions_references AFTER INSERT ON transactions
  REFERENCING NEW TABLE AS new_transactions FOR EACH STATEMENT EXECUTE FUNCTION transactions_assert_references();

CREATE FUNCTION entries_assert_references() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  missing record;
BEGIN
  SELECT n.tenant_id, n.transaction_id INTO missing
    FROM (SELECT DISTINCT tenant_id, transaction_id FROM new_entries) n
   WHERE (SELECT true FROM transactions t WHERE t.tenant_id = n.tenant_id AND t.id = n.transaction_id) IS NULL
   LIMIT 1;
  IF FOUND THEN
    PERFORM ledger_missing_reference('entries', 'entries_tenant_id_transaction_id_fkey', 'tenant_id, transaction_id',
                                     missing.tenant_id || ', ' || missing.transaction_id, 'transactions');
  END IF;
  SELECT n.tenant_id, n.account_id, n.currency INTO missing
    FROM (SELECT DISTINCT tenant_id, account_id, currency FROM new_entries) n
   WHERE (SELECT true FROM accounts a
           WHERE a.tenant_id = n.tenant_id AND a.id = n.account_id AND a.currency = n.currency) IS NULL
   LIMIT 1;
  IF FOUND THEN
    PERFORM ledger_missing_reference('entries', 'entries_tenant_id_account_id_currency_fkey',
                                     'tenant_id, account_id, currency',
                                     missing.tenant_id || ', ' || missing.account_id || ', ' || missing.currency,
                                     'accounts');
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER entries_references AFTER INSERT ON entries
  REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION entries_assert_references();

CREATE FUNCTION journal_links_assert_references() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  missing record;
BEGIN
  SELECT n.tenant_id, n.transaction_id INTO missing
    FROM new_links n
   WHERE (SELECT true FROM transactions t WHERE t.tenant_id = n.tenant_id AND t.id = n.transaction_id) IS NULL
   LIMIT 1;
  IF FOUND THEN
    PERFORM ledger_missing_reference('journal_links', 'journal_links_tenant_id_transaction_id_fkey',
                                     'tenant_id, transaction_id', missing.tenant_id || ', ' || missing.transaction_id,
                                     'transactions');
  END IF;
  SELECT n.tenant_id, n.stripe INTO missing
    FROM (SELECT DISTINCT tenant_id, stripe FROM new_links) n
   WHERE (SELECT true FROM journal_heads h WHERE h.tenant_id = n.tenant_id AND h.stripe = n.stripe) IS NULL
   LIMIT 1;
  IF FOUND THEN
    PERFORM ledger_missing_reference('journal_links', 'journal_links_tenant_id_stripe_fkey', 'tenant_id, stripe',
                                     missing.tenant_id || ', ' || missing.stripe, 'journal_heads');
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER journal_links_references AFTER INSERT ON journal_links
  REFERENCING NEW TABLE AS new_links FOR EACH STATEMENT EXECUTE FUNCTION journal_links_assert_references();

CREATE FUNCTION outbox_events_assert_references() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  missing record;
BEGIN
  SELECT n.tenant_id INTO missing
    FROM (SELECT DISTINCT tenant_id FROM new_events) n
   WHERE (SELECT true FROM tenants t WHERE t.id = n.tenant_id) IS NULL
   LIMIT 1;
  IF FOUND THEN
    PERFORM ledger_missing_reference('outbox_events', 'outbox_events_tenant_id_fkey', 'tenant_id',
                                     missing.tenant_id::text, 'tenants');
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER outbox_events_references AFTER INSERT ON outbox_events
  REFERENCING NEW TABLE AS new_events FOR EACH STATEMENT EXECUTE FUNCTION outbox_events_assert_references();

-- The referenced side: a tenant, an account or a journal stripe is never deleted and its key never
-- changes (an account is closed, not deleted), so what a check above saw stays true after it.
CREATE FUNCTION ledger_forbid_referenced_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% rows are referenced by the ledger: % of a row or of its key is not allowed', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'foreign_key_violation', TABLE = TG_TABLE_NAME;
END $$;

CREATE TRIGGER tenants_not_deleted BEFORE DELETE ON tenants
  FOR EACH ROW EXECUTE FUNCTION ledger_forbid_referenced_change();
CREATE TRIGGER tenants_not_truncated BEFORE TRUNCATE ON tenants
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_forbid_referenced_change();
CREATE TRIGGER tenants_key_fixed BEFORE UPDATE OF id ON tenants
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION ledger_forbid_referenced_change();
CREATE TRIGGER accounts_not_deleted BEFORE DELETE ON accounts
  FOR EACH ROW EXECUTE FUNCTION ledger_forbid_referenced_change();
CREATE TRIGGER accounts_not_truncated BEFORE TRUNCATE ON accounts
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_forbid_referenced_change();
CREATE TRIGGER accounts_key_fixed BEFORE UPDATE OF tenant_id, id, currency ON accounts
  FOR EACH ROW WHEN ((OLD.tenant_id, OLD.id, OLD.currency) IS DISTINCT FROM (NEW.tenant_id, NEW.id, NEW.currency))
  EXECUTE FUNCTION ledger_forbid_referenced_change();
CREATE TRIGGER journal_heads_not_deleted BEFORE DELETE ON journal_heads
  FOR EACH ROW EXECUTE FUNCTION ledger_forbid_referenced_change();
CREATE TRIGGER journal_heads_not_truncated BEFORE TRUNCATE ON journal_heads
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_forbid_referenced_change();
CREATE TRIGGER journal_heads_key_fixed BEFORE UPDATE OF tenant_id, stripe ON journal_heads
  FOR EACH ROW WHEN ((OLD.tenant_id, OLD.stripe) IS DISTINCT FROM (NEW.tenant_id, NEW.stripe))
  EXECUTE FUNCTION ledger_forbid_referenced_change();
