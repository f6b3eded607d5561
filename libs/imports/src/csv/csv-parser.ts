import { parse as csvParse } from 'csv-parse';
import { StatementLineBuilder } from '../line-builder';
import { type StatementError, statementError, type StatementItem } from '../statement-items';
import { columnsRow, resolveColumns, type RowResult } from './csv-columns';
import { gatewayRow, resolveGatewayColumns } from './csv-gateway';
import type { CsvProfile } from './csv-profile';

/** One record (with quoted line breaks) longer than this is refused: usually a wrong delimiter or quote. */
export const CSV_RECORD_CHARS_MAX = 64 * 1024;

export type CsvLayout = { kind: 'gateway' } | { kind: 'columns'; profile: CsvProfile };

interface CsvRecord {
  kind: 'record';
  lineNumber: number;
  fields: string[];
  raw: string;
}

// csv-parse's own messages name the line where it noticed the problem; ours name the record's first line.
const STRUCTURE_PROBLEMS: Readonly<Record<string, string>> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted field is never closed',
  CSV_INVALID_CLOSING_QUOTE: 'a closing quote is followed by something other than a delimiter or line end',
  CSV_MAX_RECORD_SIZE: `a record is longer than ${CSV_RECORD_CHARS_MAX} characters (wrong delimiter or quote?)`,
};

// csv-parse counts the line where a record ENDS and its raw text includes skipped blank lines before it
// and the line break after it; the record starts that many embedded line breaks earlier.
function startLine(endLine: number, raw: string): number {
  const body = raw.replace(/(\r\n|\n|\r)$/, '').replace(/^(\r?\n)+/, '');
  return endLine - (body.match(/\n/g)?.length ?? 0);
}

/** The record's text without its line break, and its first line (see startLine). */
function recordText(endLine: number, raw: string): { lineNumber: number; raw: string } {
  // Nearly every record is one line ending in its only line break: no regular expression needed.
  const lineBreakAt = raw.indexOf('\n');
  if (lineBreakAt === raw.length - 1 && !raw.includes('\r')) return { lineNumber: endLine, raw: raw.slice(0, -1) };
  return { lineNumber: startLine(endLine, raw), raw: raw.replace(/(\r\n|\n|\r)$/, '') };
}

/**
 * Streams records out of csv-parse. Records are taken in on_record, synchronously during write(), so none is
 * lost when a later quoting error destroys the stream. A quoting error ends the file: after a broken quote,
 * no later field boundary can be trusted.
 */
async function* csvRecords(text: AsyncIterable<string>, delimiter: string): AsyncGenerator<CsvRecord | StatementError> {
  const queue: Array<CsvRecord | StatementError> = [];
  let failure: StatementError | null = null;
  let lastRecordLine = 0;
  const parser = csvParse({
    delimiter,
    raw: true,
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: CSV_RECORD_CHARS_MAX,
    on_record: (record: unknown, context) => {
      const fields = (record as { record: string[] }).record;
      const raw = context.raw ?? '';
      lastRecordLine = context.lines;
      const text = recordText(context.lines, raw);
      queue.push({ kind: 'record', lineNumber: text.lineNumber, fields, raw: text.raw });
      return null;
    },
  });
  const closed = new Promise<void>((resolve) => parser.on('close', resolve));
  parser.on('error', (error: Error & { code?: unknown }) => {
    const known = typeof error.code === 'string' ? STRUCTURE_PROBLEMS[error.code] : undefined;
    // A broken record starts right after the last good one (blank lines aside).
    failure ??= statementError(lastRecordLine + 1, `CSV structure: ${known ?? error.message} (the file is not read further)`);
  });
  parser.resume();
  try {
    for await (const chunk of text) {
      parser.write(chunk);
      yield* queue.splice(0);
      if (failure !== null) break;
    }
    if (failure === null) {
      parser.end();
      await closed;
      yield* queue.splice(0);
    }
    if (failure !== null) yield failure;
  } finally {
    // Also when the consumer stops early (collectStatement's linesMax): release the parser's buffers.
    parser.destroy();
  }
}

type RowMapper = (fields: readonly string[], lineNumber: number, raw: string) => RowResult;

/** The header decides the row mapper; null (with an error) when the file cannot be mapped at all. */
function rowMapper(layout: CsvLayout, header: readonly string[] | null): { mapper: RowMapper; width: number | null } | { reason: string } {
  if (layout.kind === 'gateway') {
    if (header === null) return { reason: 'the file is empty' };
    const columns = resolveGatewayColumns(header);
    if (!columns.ok) return { reason: columns.reason };
    return { mapper: (fields, line, raw) => gatewayRow(columns.value, fields, line, raw), width: header.length };
  }
  const { profile } = layout;
  if (profile.headerRow && header === null) return { reason: 'the file is empty' };
  const columns = resolveColumns(profile, profile.headerRow ? header : null);
  if (!columns.ok) return { reason: columns.reason };
  const width = profile.headerRow ? (header?.length ?? null) : (profile.columnCount ?? null);
  return { mapper: (fields, line, raw) => columnsRow(profile, columns.value, fields, line, raw), width };
}

/** A CSV export (gateway or bank) as ONE statement without balances; its item comes after the rows. */
export async function* parseCsv(text: AsyncIterable<string>, layout: CsvLayout, accountId: string | null): AsyncGenerator<StatementItem, void, undefined> {
  const builder = new StatementLineBuilder(0, accountId);
  const hasHeader = layout.kind === 'gateway' || layout.profile.headerRow;
  let mapping: ReturnType<typeof rowMapper> | null = hasHeader ? null : rowMapper(layout, null);
  const currencies = new Set<string>();
  for await (const record of csvRecords(text, layout.kind === 'gateway' ? ',' : layout.profile.delimiter)) {
    if (record.kind === 'error') {
      yield record;
      continue;
    }
    if (mapping === null) {
      mapping = rowMapper(layout, record.fields);
      if ('reason' in mapping) yield statementError(record.lineNumber, mapping.reason);
      continue;
    }
    if ('reason' in mapping) break;
    if (mapping.width !== null && record.fields.length !== mapping.width) {
      const source = hasHeader ? 'the header has' : 'the profile expects';
      yield statementError(record.lineNumber, `the row has ${record.fields.length} columns, ${source} ${mapping.width}`);
      continue;
    }
    const row = mapping.mapper(record.fields, record.lineNumber, record.raw);
    if (!row.ok) {
      for (const reason of row.reasons) yield statementError(record.lineNumber, reason);
      continue;
    }
    const built = builder.build(row.draft, row.bankId);
    if (Array.isArray(built)) yield* built;
    else {
      currencies.add(built.currency);
      yield built;
    }
  }
  if (mapping === null && hasHeader) yield statementError(1, 'the file is empty: no header row');
  yield {
    kind: 'statement',
    format: 'csv',
    statementIndex: 0,
    lineNumber: 1,
    accountId,
    statementId: null,
    sequenceNumber: null,
    electronicSequenceNumber: null,
    currency: currencies.size === 1 ? [...currencies][0] : null,
    openingBalance: null,
    closingBalance: null,
    lineCount: builder.lineCount,
  };
}
