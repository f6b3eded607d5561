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

CREATE TABLE statement_imports (
  tenant_id     uuid NOT NULL,
  id            uuid NOT NULL,
  source_id     uuid NOT NULL,
  format        text NOT NULL,
  file_name     text CHECK (length(file_name) <= 255),
  file_sha256   bytea NOT NULL CHECK (length(file_sha256) = 32),
  file_bytes    bigint NOT NULL CHECK (file_bytes >= 0),
  lines         integer NOT NULL CHECK (lines >= 0),
  duplicates    integer NOT NULL CHECK (duplicates >= 0),
  -- Per statement: account, id, opening and closing balances, and whether they add up.
  statements    jsonb NOT NULL,
  warnings      jsonb NOT NULL DEFAULT '[]',
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  -- The same file imported again for the same source is recognised by its hash.
  UNIQUE (tenant_id, source_id, file_sha256),
  FOREIGN KEY (tenant_id, source_id) REFERENCES statement_sources (tenant_id, id)
);

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
  raw              text NOT NULL CHECK (length(raw) <= 4000),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, source_id, external_id),
  FOREIGN KEY (tenant_id, source_id) REFERENCES statement_sources (tenant_id, id),
  -- Deferred: an import streams its lines first and writes its own row last, when the counts are known.
  FOREIGN KEY (tenant_id, import_id) REFERENCES statement_imports (tenant_id, id) DEFERRABLE INITIALLY DEFERRED
);
CREATE INDEX statement_lines_import_idx ON statement_lines (tenant_id, import_id, line_number);
CREATE INDEX statement_lines_booked_idx ON statement_lines (tenant_id, source_id, booked_on);

-- What a bank or gateway sent is a fact: stored once, never edited.
CREATE TRIGGER statement_lines_append_only BEFORE UPDATE OR DELETE ON statement_lines
  FOR EACH ROW EXECUTE FUNCTION ledger_forbid_change();
CREATE TRIGGER statement_imports_append_only BEFORE UPDATE OR DELETE ON statement_imports
  FOR EACH ROW EXECUTE FUNCTION ledger_forbid_change();
