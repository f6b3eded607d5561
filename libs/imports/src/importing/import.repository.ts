import { Injectable } from '@nestjs/common';
import { Database, type SqlExecutor, sqlErrorFields } from '@ledger/db';
import type { CsvProfile } from '../csv/csv-profile';
import {
  FIND_ACCOUNT,
  FIND_CSV_PROFILE,
  FIND_IMPORT,
  FIND_IMPORT_BY_HASH,
  FIND_SOURCE,
  COMPLETE_IMPORT,
  OPEN_IMPORT,
  INSERT_LINES,
  INSERT_SOURCE,
  FIND_LINE,
  LIST_IMPORT_LINES,
  LIST_SOURCES,
  UPSERT_CSV_PROFILE,
} from './imports.sql';
import type { ImportView, SourceView, StatementSummary, StoredLineView } from './import.views';
import type { StatementLineColumns } from './line-columns';

interface SourceRow {
  id: string;
  name: string;
  format: string | null;
  account_id: string;
  account_code: string;
  account_currency: string;
  created_at: Date;
}

interface ImportRow {
  id: string;
  source: string;
  format: string;
  file_name: string | null;
  file_sha256: string;
  file_bytes: bigint;
  lines: number;
  duplicates: number;
  statements: StatementSummary[];
  warnings: string[];
  created_at: Date;
}

export interface NewImport {
  id: string;
  sourceId: string;
  format: string;
  fileName: string | null;
  fileSha256: Buffer;
  fileBytes: bigint;
  lines: number;
  duplicates: number;
  statements: StatementSummary[];
  warnings: string[];
}

function sourceView(row: SourceRow): SourceView & { id: string } {
  return {
    id: row.id,
    name: row.name,
    format: row.format,
    account: row.account_code,
    accountId: row.account_id,
    currency: row.account_currency,
    createdAt: row.created_at.toISOString(),
  };
}

function importView(row: ImportRow): ImportView {
  return {
    id: row.id,
    source: row.source,
    format: row.format,
    fileName: row.file_name,
    fileSha256: row.file_sha256,
    fileBytes: row.file_bytes.toString(),
    lines: row.lines,
    duplicates: row.duplicates,
    statements: row.statements,
    warnings: row.warnings,
    createdAt: row.created_at.toISOString(),
  };
}

const json = (value: unknown) =>
  JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item));

interface LineRow {
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
}

function toLineView(row: LineRow): StoredLineView {
  return {
    id: row.id,
    externalId: row.external_id,
    lineNumber: row.line_number,
    statementIndex: row.statement_index,
    bookedOn: row.booked_on,
    valueOn: row.value_on,
    amount: row.amount_minor.toString(),
    currency: row.currency,
    reversal: row.reversal,
    typeCode: row.type_code,
    references: row.refs,
    counterparty: row.counterparty,
    description: row.description,
    ...(row.gross_minor !== null ? { gross: row.gross_minor.toString(), fee: row.fee_minor?.toString() } : {}),
  };
}

@Injectable()
export class ImportRepository {
  constructor(private readonly db: Database) {}

  async findSource(tenantId: string, name: string) {
    const row = (await this.db.executor.query<SourceRow>(FIND_SOURCE, [tenantId, name]))[0];
    return row === undefined ? undefined : sourceView(row);
  }

  async listSources(tenantId: string, limit: number) {
    return (await this.db.executor.query<SourceRow>(LIST_SOURCES, [tenantId, limit])).map(sourceView);
  }

  async findAccount(tenantId: string, ref: string) {
    return (
      await this.db.executor.query<{ id: string; code: string; currency: string }>(FIND_ACCOUNT, [tenantId, ref])
    )[0];
  }

  /** Undefined when the tenant already has a source of this name. */
  async insertSource(
    tx: SqlExecutor,
    tenantId: string,
    source: { id: string; name: string; accountId: string; format: string | null },
  ) {
    const rows = await tx.query<{ created_at: Date }>(INSERT_SOURCE, [
      tenantId,
      source.id,
      source.name,
      source.accountId,
      source.format,
    ]);
    return rows[0]?.created_at;
  }

  async findCsvProfile(tenantId: string, name: string): Promise<unknown> {
    return (await this.db.executor.query<{ definition: unknown }>(FIND_CSV_PROFILE, [tenantId, name]))[0]?.definition;
  }

  async saveCsvProfile(tx: SqlExecutor, tenantId: string, name: string, definition: CsvProfile): Promise<void> {
    await tx.query(UPSERT_CSV_PROFILE, [tenantId, name, JSON.stringify(definition)]);
  }

  /** Returns how many of the lines were new to the source. */
  async insertLines(
    tx: SqlExecutor,
    tenantId: string,
    sourceId: string,
    importId: string,
    lines: StatementLineColumns,
  ): Promise<number> {
    const rows = await tx.query<{ inserted: bigint }>(INSERT_LINES, [
      tenantId,
      sourceId,
      importId,
      ...lines.parameters(),
    ]);
    return Number(rows[0]!.inserted);
  }

  /** Marks where an import's writes start, so they can be undone alone (the request may hold more). */
  async markStart(tx: SqlExecutor): Promise<void> {
    await tx.query('SAVEPOINT statement_import');
  }

  async undoToStart(tx: SqlExecutor): Promise<void> {
    await tx.query('ROLLBACK TO SAVEPOINT statement_import');
  }

  async openImport(
    tx: SqlExecutor,
    tenantId: string,
    record: { id: string; sourceId: string; format: string; fileName: string | null },
  ): Promise<void> {
    await tx.query(OPEN_IMPORT, [tenantId, record.id, record.sourceId, record.format, record.fileName]);
  }

  /** Undefined when this source already has a file with the same hash. */
  async completeImport(tx: SqlExecutor, tenantId: string, record: NewImport): Promise<Date | undefined> {
    // The same file again violates the unique hash; the savepoint taken by markStart lets the caller go on.
    try {
      const rows = await tx.query<{ created_at: Date }>(COMPLETE_IMPORT, [
        tenantId,
        record.id,
        record.fileSha256,
        record.fileBytes,
        record.lines,
        record.duplicates,
        json(record.statements),
        json(record.warnings),
      ]);
      return rows[0]!.created_at;
    } catch (error) {
      if (sqlErrorFields(error)?.code === '23505') return undefined;
      throw error;
    }
  }

  async findImport(tenantId: string, id: string): Promise<ImportView | undefined> {
    const row = (await this.db.executor.query<ImportRow>(FIND_IMPORT, [tenantId, id]))[0];
    return row === undefined ? undefined : importView(row);
  }

  async findImportByHash(tenantId: string, sourceId: string, sha256: Buffer): Promise<ImportView | undefined> {
    const row = (await this.db.executor.query<ImportRow>(FIND_IMPORT_BY_HASH, [tenantId, sourceId, sha256]))[0];
    return row === undefined ? undefined : importView(row);
  }

  async listLines(
    tenantId: string,
    importId: string,
    after: { lineNumber: number; id: string },
    limit: number,
  ): Promise<StoredLineView[]> {
    const rows = await this.db.executor.query<LineRow>(LIST_IMPORT_LINES, [
      tenantId,
      importId,
      after.lineNumber,
      after.id,
      limit,
    ]);
    return rows.map(toLineView);
  }

  async findLine(tenantId: string, id: string): Promise<(StoredLineView & { importId: string }) | undefined> {
    const row = (await this.db.executor.query<LineRow>(FIND_LINE, [tenantId, id]))[0];
    return row === undefined ? undefined : { ...toLineView(row), importId: row.import_id };
  }
}
