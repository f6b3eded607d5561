-- Statement import: sources (a bank account or a gateway, mapped to a ledger account), imports
-- (one uploaded file each) and their statement lines, deduplicated per source.

CREATE TABLE statement_sources (
  tenant_id   uuid NOT NULL REFERENCES tenants (id),
  id          uuid NOT NULL,
  name        text NOT NULL CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$'),
  account_id  uuid NOT NULL,
  format      text CHECK (length(format) BETWEEN 1 AND 80),
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, name),
  FOREIGN KEY (tenant_id, account_id) REFERENCES accounts (tenant_id, id)
);

-- Custom CSV profiles, stored per tenant, used as format 'csv:<name>'.
CREATE TABLE csv_profiles (
  tenant_id   uuid NOT NULL REFERENCES tenants (id),
  name        text NOT NULL CHECK (name ~ '^[a-z0-9][a-z0-9_-]{0,39}$'),
  definition  jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, name)
);

-- An import is written first (so its lines can name it) and completed once, at the end of the same
-- transaction, with what the file turned out to hold.
CREATE TABLE statement_imports (
  tenant_id     uuid NOT NULL,
  id            uuid NOT NULL,
  source_id     uuid NOT NULL,
  format        text NOT NULL,
  file_name     text CHECK (length(file_name) <= 255),
  file_sha256   bytea CHECK (length(file_sha256) = 32),
  file_bytes    bigint CHECK (file_bytes >= 0),
  lines         integer CHECK (lines >= 0),
  duplicates    integer CHECK (duplicates >= 0),
  -- Per statement: account, id, opening and closing balances, and whether they add up.
  statements    jsonb,
  warnings      jsonb,
  created_at    timestamptz NOT NULL DEFAULT now(),
  completed_at  timestamptz,
  PRIMARY KEY (tenant_id, id),
  -- The same file imported again for the same source is recognised by its hash.
  UNIQUE (tenant_id, source_id, file_sha256),
  FOREIGN KEY (tenant_id, source_id) REFERENCES statement_sources (tenant_id, id),
  CONSTRAINT statement_imports_completed_whole CHECK (
    (completed_at IS NULL) = (file_sha256 IS NULL) AND (completed_at IS NULL) = (file_bytes IS NULL)
    AND (completed_at IS NULL) = (lines IS NULL) AND (completed_at IS NULL) = (duplicates IS NULL)
    AND (completed_at IS NULL) = (statements IS NULL) AND (completed_at IS NULL) = (warnings IS NULL))
);

-- What a bank or gateway sent is a fact: an import is completed once and never changed after.
CREATE FUNCTION statement_imports_complete_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.completed_at IS NULL AND NEW.completed_at IS NOT NULL
     AND (NEW.tenant_id, NEW.id, NEW.source_id, NEW.format, NEW.file_name, NEW.created_at)
         IS NOT DISTINCT FROM (OLD.tenant_id, OLD.id, OLD.source_id, OLD.format, OLD.file_name, OLD.created_at) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'statement_imports: an import is completed once and then never changed (%)', TG_OP USING ERRCODE = 'LG002';
END $$;
CREATE TRIGGER statement_imports_immutable BEFORE UPDATE OR DELETE ON statement_imports
  FOR EACH ROW EXECUTE FUNCTION statement_imports_complete_once();
CREATE TRIGGER statement_imports_no_truncate BEFORE TRUNCATE ON statement_imports
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_forbid_change();

CREATE TABLE statement_lines (
  tenant_id        uuid NOT NULL,
  id               uuid NOT NULL,
  source_id        uuid NOT NULL,
  import_id        uuid NOT NULL,
  -- Stable identity of the line within its source, so overlapping statements never duplicate it.
  external_id      text NOT NULL CHECK (length(external_id) BETWEEN 1 AND 200),
  line_number      integer NOT NULL CHECK (line_number > 0),
  statement_index  integer NOT NULL CHECK (statement_index >= 0),
  booked_on        date NOT NULL,
  value_on         date,
  amount_minor     bigint NOT NULL,
  currency         char(3) NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  reversal         boolean NOT NULL DEFAULT false,
  type_code        text,
  refs             jsonb NOT NULL DEFAULT '{}',
  counterparty     jsonb,
  description      text NOT NULL DEFAULT '',
  extra            jsonb NOT NULL DEFAULT '{}',
  raw              text NOT NULL CHECK (length(raw) <= 4500),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, source_id, external_id)
);
CREATE INDEX statement_lines_import_idx ON statement_lines (tenant_id, import_id, line_number);

-- The foreign key of lines to their import, checked once per INSERT statement over all its rows (a
-- per-row foreign key check was most of the cost of storing a million lines): every line names an
-- import of the same tenant and source that is still being written. Imports are never deleted.
CREATE FUNCTION statement_lines_assert_open_import() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  orphan record;
BEGIN
  SELECT n.tenant_id, n.import_id, n.source_id INTO orphan
    FROM (SELECT DISTINCT tenant_id, import_id, source_id FROM new_lines) n
   WHERE NOT EXISTS (SELECT 1 FROM statement_imports i
                      WHERE i.tenant_id = n.tenant_id AND i.id = n.import_id AND i.source_id = n.source_id
                        AND i.completed_at IS NULL)
   LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'statement lines name import % of source %, which is not an open import of that source',
      orphan.import_id, orphan.source_id USING ERRCODE = '23503';
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER statement_lines_open_import AFTER INSERT ON statement_lines
  REFERENCING NEW TABLE AS new_lines
  FOR EACH STATEMENT EXECUTE FUNCTION statement_lines_assert_open_import();

CREATE TRIGGER statement_lines_append_only BEFORE UPDATE OR DELETE ON statement_lines
  FOR EACH ROW EXECUTE FUNCTION ledger_forbid_change();
CREATE TRIGGER statement_lines_no_truncate BEFORE TRUNCATE ON statement_lines
  FOR EACH STATEMENT EXECUTE FUNCTION ledger_forbid_change();
