import { Injectable } from '@nestjs/common';
import { Database, sqlErrorFields } from '@ledger/db';
import {
  AFTER_EVERY_ID,
  BROKEN_STATEMENTS,
  type BrokenStatementRow,
  COMPLETE_IMPORT,
  FIND_IMPORT,
  FIND_IMPORT_BY_HASH,
  FIND_LINE,
  FINALIZE_INTERIM_LINES,
  SOURCE_HAS_INTERIM_LINES,
  INSERT_LINES,
  type ImportRow,
  LIST_IMPORT_LINES,
  LIST_IMPORTS,
  LIST_SOURCE_IMPORTS,
  LINES_WITH_SOURCE,
  type LineRow,
  MARK_IMPORT_START,
  OPEN_IMPORT,
  UNDO_TO_IMPORT_START,
} from './imports.sql';
import { storedCharset } from '../charsets';
import type { ImportView, StatementLineListView, StatementSummary, StoredLineView } from './import.views';
import type { StatementLineColumns } from './line-columns';

export interface NewImport {
  id: string;
  sourceId: string;
  format: string;
  fileName: string | null;
  actor: string;
  fileSha256: Buffer;
  fileBytes: bigint;
  charset: string;
  lines: number;
  duplicates: number;
  interim: boolean;
  finalized: number;
  statements: StatementSummary[];
  warnings: string[];
}

/** A stored line as another lib sees it beside its own rows (a match's members). */
export interface LineSummary {
  id: string;
  sourceId: string;
  amountMinor: bigint;
  currency: string;
  bookedOn: string;
  description: string;
  /** The references the statement gives (`endToEndId`, `customerReference`, ...). */
  refs: Record<string, string>;
}

function importView(row: ImportRow): ImportView {
  return {
    id: row.id,
    source: row.source,
    format: row.format,
    charset: storedCharset(row.charset),
    fileName: row.file_name,
    fileSha256: row.file_sha256,
    fileBytes: row.file_bytes.toString(),
    lines: row.lines,
    duplicates: row.duplicates,
    interim: row.interim,
    // Imports before interim lines existed made none final.
    finalized: row.finalized ?? 0,
    statements: row.statements,
    warnings: row.warnings,
    actor: row.actor,
    createdAt: row.created_at.toISOString(),
  };
}

const json = (value: unknown) =>
  JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item));

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
    interim: row.interim,
  };
}

/** Imports and their lines: the streaming writes in SQL, in the current transaction. */
@Injectable()
export class ImportRepository {
  constructor(private readonly db: Database) {}

  /** Whether a final import into the source may find interim lines to make final. */
  async sourceHasInterimLines(tenantId: string, sourceId: string): Promise<boolean> {
    const rows = await this.db.query(SOURCE_HAS_INTERIM_LINES, { tenantId, sourceId });
    return rows[0]!.present;
  }

  /**
   * Returns how many of the lines were new to the source, and how many of the others were interim and are
   * now final (a final import's only: an interim import never makes a line final, nor a final one interim).
   * `finalizes`: the import is final and the source had interim lines when it began; otherwise the lookup
   * is skipped, since it costs each batch a round trip of its ids.
   */
  async insertLines(
    tenantId: string,
    target: { sourceId: string; importId: string; interim: boolean; finalizes: boolean },
    lines: StatementLineColumns,
  ): Promise<{ inserted: number; finalized: number }> {
    const { sourceId, importId, interim } = target;
    const parameters = lines.parameters();
    let finalized = 0;
    if (target.finalizes) {
      const externalIds = parameters.externalIds;
      const rows = await this.db.query(FINALIZE_INTERIM_LINES, { tenantId, sourceId, importId, externalIds });
      finalized = Number(rows[0]!.finalized);
    }
    const rows = await this.db.query(INSERT_LINES, { tenantId, sourceId, importId, interim, ...parameters });
    return { inserted: Number(rows[0]!.inserted), finalized };
  }

  /** Marks where an import's writes start, so they can be undone alone (the request may hold more). */
  async markStart(): Promise<void> {
    await this.db.query(MARK_IMPORT_START);
  }

  async undoToStart(): Promise<void> {
    await this.db.query(UNDO_TO_IMPORT_START);
  }

  async openImport(
    tenantId: string,
    record: { id: string; sourceId: string; format: string; fileName: string | null; actor: string; interim: boolean },
  ): Promise<void> {
    await this.db.query(OPEN_IMPORT, { tenantId, ...record });
  }

  /** Undefined when this source already has a file with the same hash. */
  async completeImport(tenantId: string, record: NewImport): Promise<Date | undefined> {
    // The same file again violates the unique hash; the savepoint taken by markStart lets the caller go on.
    try {
      const rows = await this.db.query(COMPLETE_IMPORT, {
        tenantId,
        id: record.id,
        fileSha256: record.fileSha256,
        fileBytes: record.fileBytes,
        charset: record.charset,
        lines: record.lines,
        duplicates: record.duplicates,
        finalized: record.finalized,
        statements: json(record.statements),
        warnings: json(record.warnings),
      });
      return rows[0]!.created_at;
    } catch (error) {
      if (sqlErrorFields(error)?.code === '23505') return undefined;
      throw error;
    }
  }

  async findImport(tenantId: string, id: string): Promise<ImportView | undefined> {
    const row = (await this.db.query(FIND_IMPORT, { tenantId, id }))[0];
    return row === undefined ? undefined : importView(row);
  }

  async findImportByHash(tenantId: string, sourceId: string, fileSha256: Buffer): Promise<ImportView | undefined> {
    const row = (await this.db.query(FIND_IMPORT_BY_HASH, { tenantId, sourceId, fileSha256 }))[0];
    return row === undefined ? undefined : importView(row);
  }

  /** Completed imports (before `beforeId`), newest first, of one source when `sourceId` is given. */
  async listImports(
    tenantId: string,
    filter: { sourceId?: string; beforeId?: string },
    limit: number,
  ): Promise<ImportView[]> {
    const page = { tenantId, beforeId: filter.beforeId ?? AFTER_EVERY_ID, limit };
    const rows =
      filter.sourceId === undefined
        ? await this.db.query(LIST_IMPORTS, page)
        : await this.db.query(LIST_SOURCE_IMPORTS, { ...page, sourceId: filter.sourceId });
    return rows.map(importView);
  }

  async listLines(
    tenantId: string,
    importId: string,
    after: { lineNumber: number; id: string },
    limit: number,
  ): Promise<StoredLineView[]> {
    const rows = await this.db.query(LIST_IMPORT_LINES, {
      tenantId,
      importId,
      afterLineNumber: after.lineNumber,
      afterId: after.id,
      limit,
    });
    return rows.map(toLineView);
  }

  async findLine(tenantId: string, id: string): Promise<(StoredLineView & { importId: string }) | undefined> {
    const row = (await this.db.query(FIND_LINE, { tenantId, id }))[0];
    return row === undefined ? undefined : { ...toLineView(row), importId: row.import_id };
  }

  /** The named lines (those of the tenant) as the API lists them, with import and source; unknown ids left out. */
  async lineViewsByIds(tenantId: string, ids: readonly string[]): Promise<StatementLineListView[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.query(LINES_WITH_SOURCE, { tenantId, ids: [...ids] });
    return rows.map((row) => ({ ...toLineView(row), importId: row.import_id, source: row.source }));
  }

  /** The named lines (those of the tenant), for a view that shows them beside other rows. */
  async linesByIds(tenantId: string, ids: readonly string[]): Promise<LineSummary[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.prisma.statementLine.findMany({
      where: { tenantId, id: { in: [...ids] } },
      select: {
        id: true,
        sourceId: true,
        amountMinor: true,
        currency: true,
        bookedOn: true,
        description: true,
        refs: true,
      },
    });
    // A date column arrives as midnight UTC of that day.
    return rows.map((row) => ({
      ...row,
      bookedOn: row.bookedOn.toISOString().slice(0, 10),
      refs: row.refs as Record<string, string>,
    }));
  }

  /** Completed imports' statements that do not add up, at most `limit`. */
  brokenStatements(tenantId: string, limit: number): Promise<BrokenStatementRow[]> {
    return this.db.query(BROKEN_STATEMENTS, { tenantId, limit });
  }
}
