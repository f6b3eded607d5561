-- Who changed a tenant's configuration, when, and how: API keys, accounts, statement sources and CSV
-- profiles, owner routes, matching rules, the tenant itself. Written in the same transaction as the
-- change it records, never edited.
CREATE TABLE audit_log (
  tenant_id  uuid NOT NULL REFERENCES tenants (id),
  id         uuid NOT NULL,
  at         timestamptz NOT NULL DEFAULT now(),
  actor      text NOT NULL CHECK (length(actor) BETWEEN 1 AND 200),
  action     text NOT NULL CHECK (action ~ '^[a-z_]+\.[a-z_]+$'),
  target_id  text CHECK (length(target_id) <= 200),
  -- The request as sent (secrets never: no route that takes one is audited with its body).
  request    jsonb NOT NULL DEFAULT '{}',
  PRIMARY KEY (tenant_id, id)
);
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION ledger_forbid_change();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_forbid_change();
