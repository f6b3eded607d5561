// Statement storage. Lines are inserted in batches while the file streams; the import's own row last.

export const FIND_SOURCE = `
SELECT s.id, s.name, s.format, s.account_id, a.code AS account_code, a.currency AS account_currency, s.created_at
  FROM statement_sources s JOIN accounts a ON a.tenant_id = s.tenant_id AND a.id = s.account_id
 WHERE s.tenant_id = $1 AND s.name = $2`;

export const LIST_SOURCES = `
SELECT s.id, s.name, s.format, s.account_id, a.code AS account_code, a.currency AS account_currency, s.created_at
  FROM statement_sources s JOIN accounts a ON a.tenant_id = s.tenant_id AND a.id = s.account_id
 WHERE s.tenant_id = $1 ORDER BY s.name LIMIT $2`;

/** The source's ledger account, by id or code (a read of the ledger's table, never a write). */
export const FIND_ACCOUNT = `
SELECT id, code, currency FROM accounts WHERE tenant_id = $1 AND (code = $2 OR id::text = $2)`;

export const INSERT_SOURCE = `
INSERT INTO statement_sources (tenant_id, id, name, account_id, format) VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (tenant_id, name) DO NOTHING
RETURNING created_at`;

export const FIND_CSV_PROFILE = `SELECT definition FROM csv_profiles WHERE tenant_id = $1 AND name = $2`;

export const UPSERT_CSV_PROFILE = `
INSERT INTO csv_profiles (tenant_id, name, definition) VALUES ($1, $2, $3::text::jsonb)
ON CONFLICT (tenant_id, name) DO UPDATE SET definition = excluded.definition
RETURNING created_at`;

/**
 * A batch of lines, one array per column (see StatementLineColumns): PostgreSQL reads typed arrays far
 * more cheaply than a JSON document of the same rows. A line the source already has (same external id)
 * is skipped and counted.
 */
export const INSERT_LINES = `
WITH inserted AS (
  INSERT INTO statement_lines (tenant_id, id, source_id, import_id, external_id, line_number, statement_index,
                               booked_on, value_on, amount_minor, currency, reversal, type_code, refs,
                               counterparty, description, gross_minor, fee_minor, raw)
  SELECT $1, l.id, $2, $3, l.external_id, l.line_number, l.statement_index, l.booked_on, l.value_on,
         l.amount_minor, l.currency, l.reversal, l.type_code, l.refs::jsonb, l.counterparty::jsonb,
         l.description, l.gross_minor, l.fee_minor, l.raw
    FROM unnest($4::uuid[], $5::text[], $6::int4[], $7::int4[], $8::date[], $9::date[], $10::int8[], $11::text[],
                $12::bool[], $13::text[], $14::text[], $15::text[], $16::text[], $17::int8[], $18::int8[], $19::text[])
         AS l(id, external_id, line_number, statement_index, booked_on, value_on, amount_minor, currency,
              reversal, type_code, refs, counterparty, description, gross_minor, fee_minor, raw)
  ON CONFLICT (tenant_id, source_id, external_id) DO NOTHING
  RETURNING 1
)
SELECT count(*)::int8 AS inserted FROM inserted`;

/** The import's row, written first so that its lines can name it. */
export const OPEN_IMPORT = `
INSERT INTO statement_imports (tenant_id, id, source_id, format, file_name) VALUES ($1, $2, $3, $4, $5)`;

/** Completes it once the file is read; a unique violation means the source already has this file. */
export const COMPLETE_IMPORT = `
UPDATE statement_imports
   SET file_sha256 = $3, file_bytes = $4, lines = $5, duplicates = $6, statements = $7::text::jsonb,
       warnings = $8::text::jsonb, completed_at = now()
 WHERE tenant_id = $1 AND id = $2 AND completed_at IS NULL
RETURNING created_at`;

const IMPORT_VIEW = `
SELECT i.id, s.name AS source, i.format, i.file_name, encode(i.file_sha256, 'hex') AS file_sha256, i.file_bytes,
       i.lines, i.duplicates, i.statements, i.warnings, i.created_at
  FROM statement_imports i JOIN statement_sources s ON s.tenant_id = i.tenant_id AND s.id = i.source_id`;
const COMPLETED = 'i.completed_at IS NOT NULL';

export const FIND_IMPORT = `${IMPORT_VIEW} WHERE i.tenant_id = $1 AND i.id = $2 AND ${COMPLETED}`;

export const FIND_IMPORT_BY_HASH = `${IMPORT_VIEW} WHERE i.tenant_id = $1 AND i.source_id = $2 AND i.file_sha256 = $3 AND ${COMPLETED}`;

/** Lines an import added, in file order, keyset-paged on (line number, id). */
const LINE_COLUMNS = `
id, import_id, external_id, line_number, statement_index, booked_on::text, value_on::text, amount_minor, currency,
reversal, type_code, refs, counterparty, description, gross_minor, fee_minor`;

export const LIST_IMPORT_LINES = `
SELECT ${LINE_COLUMNS}
  FROM statement_lines
 WHERE tenant_id = $1 AND import_id = $2 AND (line_number, id) > ($3::int4, $4::uuid)
 ORDER BY line_number, id
 LIMIT $5`;

export const FIND_LINE = `SELECT ${LINE_COLUMNS} FROM statement_lines WHERE tenant_id = $1 AND id = $2`;
