import { type NoParams, type SqlArray, sql } from '@ledger/db';
import type { StatementSummary } from './import.views';

// Statement storage. Lines are inserted in batches while the file streams; the import's own row last.

/** Marks where an import's writes start, so they can be undone alone (the request may hold more). */
export const MARK_IMPORT_START = sql<NoParams>('SAVEPOINT statement_import');
export const UNDO_TO_IMPORT_START = sql<NoParams>('ROLLBACK TO SAVEPOINT statement_import');

/** One array per column of a batch of lines, in the lines' order (see StatementLineColumns). */
export interface LineColumnParams {
  ids: SqlArray<'uuid'>;
  externalIds: SqlArray<'text'>;
  lineNumbers: SqlArray<'int4'>;
  statementIndexes: SqlArray<'int4'>;
  bookedOns: SqlArray<'date'>;
  valueOns: SqlArray<'date'>;
  amountsMinor: SqlArray<'int8'>;
  currencies: SqlArray<'text'>;
  reversals: SqlArray<'bool'>;
  typeCodes: SqlArray<'text'>;
  /** JSON texts: the lines' references, and their counterparties (null when a line has none). */
  references: SqlArray<'text'>;
  counterparties: SqlArray<'text'>;
  descriptions: SqlArray<'text'>;
  grossesMinor: SqlArray<'int8'>;
  feesMinor: SqlArray<'int8'>;
  raws: SqlArray<'text'>;
}

/**
 * A batch of lines, one array per column (see StatementLineColumns): PostgreSQL reads typed arrays far
 * more cheaply than a JSON document of the same rows; the JSON columns come as texts, read as jsonb row by
 * row. A line the source already has (same external id) is skipped and counted.
 */
export const INSERT_LINES = sql<
  LineColumnParams & { tenantId: string; sourceId: string; importId: string; interim: boolean },
  { inserted: bigint }
>(`
WITH inserted AS (
  INSERT INTO statement_lines (tenant_id, id, source_id, import_id, external_id, line_number, statement_index,
                               booked_on, value_on, amount_minor, currency, reversal, type_code, refs,
                               counterparty, description, gross_minor, fee_minor, raw, interim)
  SELECT :tenantId, l.id, :sourceId, :importId, l.external_id, l.line_number, l.statement_index, l.booked_on,
         l.value_on, l.amount_minor, l.currency, l.reversal, l.type_code, l.refs::jsonb, l.counterparty::jsonb,
         l.description, l.gross_minor, l.fee_minor, l.raw, :interim::bool
    FROM unnest(:ids::uuid[], :externalIds::text[], :lineNumbers::int4[], :statementIndexes::int4[],
                :bookedOns::date[], :valueOns::date[], :amountsMinor::int8[], :currencies::text[],
                :reversals::bool[], :typeCodes::text[],
                :references::text[], :counterparties::text[],
                :descriptions::text[], :grossesMinor::int8[], :feesMinor::int8[], :raws::text[])
         AS l(id, external_id, line_number, statement_index, booked_on, value_on, amount_minor, currency,
              reversal, type_code, refs, counterparty, description, gross_minor, fee_minor, raw)
  ON CONFLICT (tenant_id, source_id, external_id) DO NOTHING
  RETURNING 1
)
SELECT count(*)::int8 AS inserted FROM inserted`);

/**
 * Before a final import's batch is inserted: the source's interim lines that the batch brings again become
 * final, in place (same row, same matches), and the insert then skips them as already present. Through
 * statement_lines_interim_idx, which holds only the interim lines: next to free for a source without any.
 */
/** Whether the source holds any interim line (the partial index of interim lines answers it). */
export const SOURCE_HAS_INTERIM_LINES = sql<{ tenantId: string; sourceId: string }, { present: boolean }>(`
SELECT EXISTS (
  SELECT 1 FROM statement_lines WHERE tenant_id = :tenantId AND source_id = :sourceId AND interim
) AS present`);

export const FINALIZE_INTERIM_LINES = sql<
  { tenantId: string; sourceId: string; importId: string; externalIds: SqlArray<'text'> },
  { finalized: bigint }
>(`
WITH finalized AS (
  UPDATE statement_lines
     SET interim = false, final_import_id = :importId
   WHERE tenant_id = :tenantId AND source_id = :sourceId AND interim AND external_id = ANY(:externalIds::text[])
  RETURNING 1
)
SELECT count(*)::int8 AS finalized FROM finalized`);

/** The import's row, written first so that its lines can name it. */
export const OPEN_IMPORT = sql<{
  tenantId: string;
  id: string;
  sourceId: string;
  format: string;
  fileName: string | null;
  actor: string;
  interim: boolean;
}>(`
INSERT INTO statement_imports (tenant_id, id, source_id, format, file_name, actor, interim)
VALUES (:tenantId, :id, :sourceId, :format, :fileName, :actor, :interim)`);

/** Completes it once the file is read; a unique violation means the source already has this file. */
export const COMPLETE_IMPORT = sql<
  {
    tenantId: string;
    id: string;
    fileSha256: Buffer;
    fileBytes: bigint;
    charset: string;
    lines: number;
    duplicates: number;
    finalized: number;
    /** JSON texts. */
    statements: string;
    warnings: string;
  },
  { created_at: Date }
>(`
UPDATE statement_imports
   SET file_sha256 = :fileSha256, file_bytes = :fileBytes, charset = :charset, lines = :lines, duplicates = :duplicates,
       finalized = :finalized,
       statements = :statements::text::jsonb, warnings = :warnings::text::jsonb, completed_at = now()
 WHERE tenant_id = :tenantId AND id = :id AND completed_at IS NULL
RETURNING created_at`);

export interface ImportRow {
  id: string;
  source: string;
  format: string;
  charset: string;
  file_name: string | null;
  file_sha256: string;
  file_bytes: bigint;
  lines: number;
  duplicates: number;
  interim: boolean;
  finalized: number | null;
  statements: StatementSummary[];
  warnings: string[];
  actor: string;
  created_at: Date;
}

const IMPORT_VIEW = `
SELECT i.id, s.name AS source, i.format, i.charset, i.file_name, encode(i.file_sha256, 'hex') AS file_sha256,
       i.file_bytes, i.lines, i.duplicates, i.interim, i.finalized, i.statements, i.warnings, i.actor, i.created_at
  FROM statement_imports i JOIN statement_sources s ON s.tenant_id = i.tenant_id AND s.id = i.source_id`;

export const FIND_IMPORT = sql<{ tenantId: string; id: string }, ImportRow>(`${IMPORT_VIEW}
 WHERE i.tenant_id = :tenantId AND i.id = :id AND i.completed_at IS NOT NULL`);

export const FIND_IMPORT_BY_HASH = sql<{ tenantId: string; sourceId: string; fileSha256: Buffer }, ImportRow>(`
${IMPORT_VIEW}
 WHERE i.tenant_id = :tenantId AND i.source_id = :sourceId AND i.file_sha256 = :fileSha256
   AND i.completed_at IS NOT NULL`);

/** Above every id: where a newest-first list starts. */
export const AFTER_EVERY_ID = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

type ImportPage = { tenantId: string; beforeId: string; limit: number };

// Completed imports, newest first (ids are time-ordered), keyset-paged on the id: the primary key, or
// statement_imports_source_idx for one source. Two statements rather than an optional filter, so that
// each keeps its own plan.
const IMPORTS_NEWEST_FIRST = `
 WHERE i.tenant_id = :tenantId AND i.completed_at IS NOT NULL AND i.id < :beforeId::uuid`;

export const LIST_IMPORTS = sql<ImportPage, ImportRow>(`${IMPORT_VIEW}${IMPORTS_NEWEST_FIRST}
 ORDER BY i.id DESC
 LIMIT :limit`);

export const LIST_SOURCE_IMPORTS = sql<ImportPage & { sourceId: string }, ImportRow>(`${IMPORT_VIEW}
${IMPORTS_NEWEST_FIRST} AND i.source_id = :sourceId::uuid
 ORDER BY i.id DESC
 LIMIT :limit`);

export interface LineRow {
  id: string;
  import_id: string;
  external_id: string;
  line_number: number;
  statement_index: number;
  booked_on: string;
  value_on: string | null;
  amount_minor: bigint;
  currency: string;
  reversal: boolean;
  type_code: string | null;
  refs: Record<string, string>;
  counterparty: Record<string, string> | null;
  description: string;
  gross_minor: bigint | null;
  fee_minor: bigint | null;
  interim: boolean;
}

const LINE_COLUMNS = `
id, import_id, external_id, line_number, statement_index, booked_on::text, value_on::text, amount_minor, currency,
reversal, type_code, refs, counterparty, description, gross_minor, fee_minor, interim`;

/** Lines an import added, in file order, keyset-paged on (line number, id): a row comparison Prisma cannot say. */
export const LIST_IMPORT_LINES = sql<
  { tenantId: string; importId: string; afterLineNumber: number; afterId: string; limit: number },
  LineRow
>(`
SELECT ${LINE_COLUMNS}
  FROM statement_lines
 WHERE tenant_id = :tenantId AND import_id = :importId
   AND (line_number, id) > (:afterLineNumber::int4, :afterId::uuid)
 ORDER BY line_number, id
 LIMIT :limit`);

export const FIND_LINE = sql<{ tenantId: string; id: string }, LineRow>(`
SELECT ${LINE_COLUMNS} FROM statement_lines WHERE tenant_id = :tenantId AND id = :id`);

/** The named lines with their source's name, in no particular order (a page of ids, by primary key). */
export const LINES_WITH_SOURCE = sql<{ tenantId: string; ids: string[] }, LineRow & { source: string }>(`
SELECT l.*, s.name AS source
  FROM (SELECT ${LINE_COLUMNS}, source_id FROM statement_lines WHERE tenant_id = :tenantId AND id = ANY(:ids::uuid[])) l
  JOIN statement_sources s ON s.tenant_id = :tenantId AND s.id = l.source_id`);

/** A statement of a completed import whose opening balance plus its lines is not its closing balance. */
export interface BrokenStatementRow {
  key: string;
  currency: string | null;
  amount: string | null;
  source: string;
  account_id: string;
  detail: Record<string, unknown>;
}

/** Imported statements that do not add up, with the source (and its account) they came from. */
export const BROKEN_STATEMENTS = sql<{ tenantId: string; limit: number }, BrokenStatementRow>(`
SELECT i.id::text || ':' || (s.value ->> 'statementIndex') AS key, s.value -> 'closing' ->> 'currency' AS currency,
       s.value -> 'closing' ->> 'amount' AS amount, src.name AS source, src.account_id::text AS account_id,
       json_build_object('importId', i.id, 'fileName', i.file_name, 'statement', s.value) AS detail
  FROM statement_imports i
  JOIN statement_sources src ON src.tenant_id = i.tenant_id AND src.id = i.source_id
 CROSS JOIN LATERAL jsonb_array_elements(i.statements) AS s(value)
 WHERE i.tenant_id = :tenantId AND i.completed_at IS NOT NULL AND (s.value ->> 'balanced')::boolean IS FALSE
 LIMIT :limit`);
