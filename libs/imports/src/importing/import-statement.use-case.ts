import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { newId } from '@ledger/ids';
import { DomainError } from '@ledger/errors';
import { OutboxRepository } from '@ledger/outbox';
import { type LineAmount, balanceCheck, balanceProblem } from '../balance-check';
import { defaultCharset, isStatementCharset, type StatementCharset } from '../charsets';
import { type CsvProfile, csvProfileSchema } from '../csv/csv-profile';
import { isInterimFormat, parseBatches, type StatementFormat } from '../parse';
import type { StatementError, StatementHeader } from '../statement-items';
import type { StatementInput } from '../text-input';
import { HashedInput } from './hashed-input';
import { detectedImportFormat } from './import-format';
import { ImportRepository } from './import.repository';
import type { ImportView, StatementSummary } from './import.views';
import { StatementLineColumns } from './line-columns';
import { SourceRepository } from './source.repository';
import { StatementSourceReader } from './statement-source-reader';

/** Limits on one file: larger statements are split by the bank or the user. */
export const IMPORT_FILE_BYTES_MAX = 1024 * 1024 * 1024;
export const IMPORT_LINES_MAX = 5_000_000;
export const IMPORT_STATEMENTS_MAX = 10_000;
/** Lines written per statement while the file streams. */
export const LINE_BATCH_SIZE = 2_000;
/** Batches sent to PostgreSQL and not yet answered: at most this many batches are in memory besides the one filling. */
const BATCH_WRITES_IN_FLIGHT_MAX = 2;
const ERRORS_REPORTED_MAX = 1_000;
const BUILT_IN_CSV_PROFILES = new Set(['gateway', 'bank']);
export const STATEMENT_FORMAT_PATTERN = /^(camt053|camt052|camt054|mt940|mt942|bai2|csv:[a-z0-9][a-z0-9_-]{0,39})$/;

export interface ImportStatementCommand {
  tenantId: string;
  /** Who imports it (recorded on the import). */
  actor: string;
  source: string;
  format?: string;
  fileName?: string;
  input: StatementInput;
  /** Progress for a person watching: bytes read so far. */
  onProgress?: (bytesRead: bigint) => void;
}

export interface ImportResult {
  import: ImportView;
  /** False when this source already had the same file (recognised by its hash): nothing new was stored. */
  created: boolean;
}

interface Progress {
  lines: number;
  inserted: number;
  /** Lines already stored as interim that this final import made final. */
  finalized: number;
  batch: StatementLineColumns;
  /**
   * Batches sent and not yet answered, oldest first. Two may wait, so that PostgreSQL starts on the next
   * batch as soon as it finishes one, while Node parses the one after: parsing and storing overlap.
   */
  writing: Promise<void>[];
  errors: StatementError[];
  statements: StatementSummary[];
  /** Sum of the current statement's lines per currency, for its balance check. */
  totals: Map<string, bigint>;
  /** Per statement, in file order: what it lacks and why it does not add up. */
  warnings: string[];
}

function summary(header: StatementHeader, totals: readonly LineAmount[]): StatementSummary {
  const check = balanceCheck(header, totals);
  const problem = balanceProblem(header, totals);
  const balance = (value: StatementHeader['openingBalance']) =>
    value ? { amount: value.amountMinor.toString(), currency: value.currency, date: value.date } : null;
  return {
    statementIndex: header.statementIndex,
    accountId: header.accountId,
    statementId: header.statementId,
    currency: header.currency,
    opening: balance(header.openingBalance),
    closing: balance(header.closingBalance),
    lines: header.lineCount,
    // A statement without both balances (a CSV export) cannot be checked: neither balanced nor broken.
    balanced: header.openingBalance === null || header.closingBalance === null ? null : check.ok,
    ...(problem === undefined ? {} : { balanceProblem: problem }),
  };
}

/** A statement's item, after its lines: its summary, balance check and warnings. */
function addStatement(progress: Progress, header: StatementHeader): void {
  if (progress.statements.length >= IMPORT_STATEMENTS_MAX)
    throw new DomainError('PAYLOAD_TOO_LARGE', `a file may hold at most ${IMPORT_STATEMENTS_MAX} statements`);
  const totals = [...progress.totals].map(([currency, amountMinor]) => ({
    statementIndex: header.statementIndex,
    currency,
    amountMinor,
  }));
  const statement = summary(header, totals);
  progress.statements.push(statement);
  progress.totals = new Map();
  for (const warning of header.warnings ?? []) progress.warnings.push(`statement ${header.statementIndex}: ${warning}`);
  if (statement.balanced === false)
    progress.warnings.push(`statement ${header.statementIndex}: ${statement.balanceProblem}`);
}

/**
 * Reads a statement file as it streams and stores its lines, deduplicated per source, in one database
 * transaction: a file with any line that cannot be read exactly is refused as a whole with every bad
 * line's number and reason, and nothing of it is stored.
 */
@Injectable()
export class ImportStatementUseCase {
  constructor(
    private readonly db: Database,
    private readonly imports: ImportRepository,
    private readonly sources: StatementSourceReader,
    private readonly sourceRows: SourceRepository,
    private readonly outbox: OutboxRepository,
  ) {}

  async execute(command: ImportStatementCommand): Promise<ImportResult> {
    const source = await this.sources.findByName(command.tenantId, command.source);
    if (source === undefined) throw new DomainError('NOT_FOUND', `statement source ${command.source} not found`);
    // The hash and byte count are of the bytes as received, whatever charset they are read in.
    const hashed = new HashedInput(command.input, IMPORT_FILE_BYTES_MAX, command.onProgress);
    const named = command.format ?? source.format;
    const { format, input } = named === null ? await detectedImportFormat(hashed) : { format: named, input: hashed };
    if (!STATEMENT_FORMAT_PATTERN.test(format)) {
      throw new DomainError(
        'VALIDATION_FAILED',
        'format must be camt053, camt052, camt054, mt940, mt942, bai2 or csv:<profile> (or left out)',
        { fields: [{ path: 'format', message: `unknown format ${format}` }] },
      );
    }
    const csvProfiles = await this.csvProfiles(command.tenantId, format);
    const charset =
      source.charset !== null && isStatementCharset(source.charset) ? source.charset : defaultCharset(format);
    let charsetUsed: StatementCharset = 'utf-8';
    const importId = newId();
    const interim = isInterimFormat(format);
    return this.db.transaction('read committed', async () => {
      const fileName = command.fileName?.slice(0, 255) ?? null;
      await this.imports.markStart();
      await this.imports.openImport(command.tenantId, {
        id: importId,
        sourceId: source.id,
        format,
        fileName,
        actor: command.actor,
        interim,
      });
      // An interim report imported into the same source while this runs may commit lines after this check:
      // they stay interim until the next final import, as they would if they had committed after this one.
      const finalizes = !interim && (await this.imports.sourceHasInterimLines(command.tenantId, source.id));
      const progress = await this.readAndStore(
        command.tenantId,
        { sourceId: source.id, importId, interim, finalizes },
        parseBatches(format as StatementFormat, input, {
          accountId: source.name,
          csvProfiles,
          charset,
          onCharset: (used) => {
            charsetUsed = used;
          },
        }),
      );
      const record = {
        id: importId,
        sourceId: source.id,
        format,
        fileName,
        actor: command.actor,
        fileSha256: hashed.digest(),
        fileBytes: hashed.bytes,
        charset: charsetUsed,
        lines: progress.lines,
        duplicates: progress.lines - progress.inserted,
        interim,
        finalized: progress.finalized,
        statements: progress.statements,
        warnings: progress.warnings,
      };
      const createdAt = await this.imports.completeImport(command.tenantId, record);
      if (createdAt === undefined) {
        // The source already has this very file: undo this import's writes and answer with that one.
        await this.imports.undoToStart();
        return {
          import: (await this.imports.findImportByHash(command.tenantId, source.id, hashed.digest()))!,
          created: false,
        };
      }
      const { sourceId: _sourceId, ...stored } = record;
      const view: ImportView = {
        ...stored,
        source: source.name,
        fileSha256: record.fileSha256.toString('hex'),
        fileBytes: record.fileBytes.toString(),
        createdAt: createdAt.toISOString(),
      };
      await this.outbox.append(command.tenantId, [
        {
          type: 'statement.imported',
          aggregateType: 'statement_import',
          aggregateId: importId,
          aggregateVersion: 1n,
          data: { import: view },
        },
      ]);
      return { import: view, created: true };
    });
  }

  private async readAndStore(
    tenantId: string,
    target: { sourceId: string; importId: string; interim: boolean; finalizes: boolean },
    batches: ReturnType<typeof parseBatches>,
  ): Promise<Progress> {
    const progress: Progress = {
      lines: 0,
      inserted: 0,
      finalized: 0,
      batch: new StatementLineColumns(),
      writing: [],
      errors: [],
      statements: [],
      totals: new Map(),
      warnings: [],
    };
    const flush = async () => {
      const batch = progress.batch;
      progress.batch = new StatementLineColumns();
      if (progress.errors.length > 0 || batch.size === 0) return;
      if (progress.writing.length >= BATCH_WRITES_IN_FLIGHT_MAX) await progress.writing.shift();
      const write = this.imports.insertLines(tenantId, target, batch).then(({ inserted, finalized }) => {
        progress.inserted += inserted;
        progress.finalized += finalized;
      });
      // A failed write surfaces when it is awaited; until then it must not count as unhandled.
      write.catch(() => undefined);
      progress.writing.push(write);
    };
    for await (const items of batches) {
      for (const item of items) {
        if (item.kind === 'error') {
          if (progress.errors.length < ERRORS_REPORTED_MAX) progress.errors.push(item);
        } else if (item.kind === 'line') {
          if (++progress.lines > IMPORT_LINES_MAX)
            throw new DomainError('PAYLOAD_TOO_LARGE', `a file may hold at most ${IMPORT_LINES_MAX} lines`);
          progress.totals.set(item.currency, (progress.totals.get(item.currency) ?? 0n) + item.amountMinor);
          progress.batch.add(item);
          if (progress.batch.size >= LINE_BATCH_SIZE) await flush();
        } else addStatement(progress, item);
      }
    }
    if (progress.errors.length > 0) {
      await Promise.allSettled(progress.writing);
      throw new DomainError(
        'IMPORT_INVALID',
        `the file has ${progress.errors.length} line(s) that cannot be read exactly; nothing was stored`,
        {
          errors: progress.errors.map((error) => ({ line: error.lineNumber, reason: error.reason })),
        },
      );
    }
    if (progress.lines === 0 && progress.statements.length === 0)
      throw new DomainError('IMPORT_INVALID', 'the file holds no statement', { errors: [] });
    await flush();
    for (const write of progress.writing) await write;
    return progress;
  }

  private async csvProfiles(tenantId: string, format: string): Promise<Record<string, CsvProfile>> {
    if (!format.startsWith('csv:')) return {};
    const name = format.slice('csv:'.length);
    if (BUILT_IN_CSV_PROFILES.has(name)) return {};
    const definition = await this.sourceRows.findCsvProfile(tenantId, name);
    if (definition === undefined)
      throw new DomainError('VALIDATION_FAILED', `unknown CSV profile ${name}`, {
        fields: [{ path: 'format', message: 'unknown profile' }],
      });
    return { [name]: csvProfileSchema.parse(definition) };
  }
}
