-- An Idempotency-Key's tenant checked once per statement, as the posting tables' references are
-- (20261205010000_statement_level_references), instead of by a declared foreign key.
--
-- Why: the foreign key's check locks the tenant's row FOR KEY SHARE for every key a posting stores, and
-- every posting stores one. Two transactions of one tenant holding that lock at once turn it into a
-- MultiXact: with API_PROCESSES=2 (the default on a two-core machine) and 16 clients posting single
-- transfers, 809-1,083 MultiXacts were made in each 10 s, and none once the foreign key was gone. Each is
-- written to its own SLRU and the WAL, and their number brings anti-wraparound vacuums closer.
-- The tenant's row can never be deleted nor its key changed (tenants_not_deleted, tenants_key_fixed),
-- so a tenant a check has seen stays, as for the other references.
--
-- The outbox events' tenant, checked the same way since the earlier migration, now by the same function;
-- and on both tables a row whose tenant_id is changed afterwards (the relays update other columns of the
-- events, which fires nothing).

ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_tenant_id_fkey;

-- Over the statement's inserted rows (new_rows), each distinct tenant probed once. TG_ARGV[0]: the
-- constraint name the refusal carries.
CREATE FUNCTION ledger_assert_inserted_tenants_exist() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  missing record;
BEGIN
  SELECT n.tenant_id INTO missing
    FROM (SELECT DISTINCT tenant_id FROM new_rows) n
   WHERE (SELECT true FROM tenants t WHERE t.id = n.tenant_id) IS NULL
   LIMIT 1;
  IF FOUND THEN
    PERFORM ledger_missing_reference(TG_TABLE_NAME, TG_ARGV[0], 'tenant_id', missing.tenant_id::text, 'tenants');
  END IF;
  RETURN NULL;
END $$;

-- A key stored again over an expired one (INSERT ... ON CONFLICT DO UPDATE) keeps its tenant_id: only the
-- rows the statement inserted are in new_rows, and the others already named an existing tenant.
CREATE TRIGGER idempotency_keys_references AFTER INSERT ON idempotency_keys
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION ledger_assert_inserted_tenants_exist('idempotency_keys_tenant_id_fkey');

DROP TRIGGER outbox_events_references ON outbox_events;
DROP FUNCTION outbox_events_assert_references();
CREATE TRIGGER outbox_events_references AFTER INSERT ON outbox_events
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION ledger_assert_inserted_tenants_exist('outbox_events_tenant_id_fkey');

-- One row whose tenant_id changed. TG_ARGV[0]: as above.
CREATE FUNCTION ledger_assert_tenant_exists() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT true FROM tenants t WHERE t.id = NEW.tenant_id) IS NULL THEN
    PERFORM ledger_missing_reference(TG_TABLE_NAME, TG_ARGV[0], 'tenant_id', NEW.tenant_id::text, 'tenants');
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER idempotency_keys_tenant_moved AFTER UPDATE OF tenant_id ON idempotency_keys
  FOR EACH ROW WHEN (OLD.tenant_id IS DISTINCT FROM NEW.tenant_id)
  EXECUTE FUNCTION ledger_assert_tenant_exists('idempotency_keys_tenant_id_fkey');
CREATE TRIGGER outbox_events_tenant_moved AFTER UPDATE OF tenant_id ON outbox_events
  FOR EACH ROW WHEN (OLD.tenant_id IS DISTINCT FROM NEW.tenant_id)
  EXECUTE FUNCTION ledger_assert_tenant_exists('outbox_events_tenant_id_fkey');
