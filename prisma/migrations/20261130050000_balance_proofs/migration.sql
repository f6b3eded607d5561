-- Balance proofs as issued: each signed checkpoint is kept, so that an account's inclusion proof and
-- a later proof's journal segment can refer to it by id. The document is what the auditor received;
-- proofs are facts like postings, so they are append-only.
CREATE TABLE balance_proofs (
  tenant_id  uuid NOT NULL REFERENCES tenants (id),
  -- SHA-256 of the signed checkpoint encoding (libs/proofs checkpoint.ts).
  id         bytea NOT NULL CHECK (length(id) = 32),
  as_of      timestamptz NOT NULL,
  issued_at  timestamptz NOT NULL,
  document   jsonb NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX balance_proofs_issued_idx ON balance_proofs (tenant_id, issued_at DESC);

CREATE TRIGGER balance_proofs_append_only BEFORE UPDATE OR DELETE ON balance_proofs
  FOR EACH ROW EXECUTE FUNCTION ledger_forbid_change();
CREATE TRIGGER balance_proofs_no_truncate BEFORE TRUNCATE ON balance_proofs
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_forbid_change();
