import { StatementLineBuilder } from '../line-builder';
import { type StatementError, statementError, type StatementItem } from '../statement-items';
import { columnsRow, resolveColumns, type RowResult } from './csv-columns';
import { gatewayRow, resolveGatewayColumns } from './csv-gateway';
import { type CsvRecord, CsvTokenizer } from './csv-tokenizer';
import type { CsvProfile } from './csv-profile';

export type CsvLayout = { kind: 'gateway' } | { kind: 'columns'; profile: CsvProfile };

/** The records of the text, a chunk's worth at a time; a structure error comes last and ends them. */
async function* csvRecords(
  text: AsyncIterable<string>,
  delimiter: string,
): AsyncGenerator<Array<CsvRecord | StatementError>> {
  const tokenizer = new CsvTokenizer(delimiter);
  for await (const chunk of text) {
    yield tokenizer.push(chunk);
    if (tokenizer.stopped) return;
  }
  yield tokenizer.end();
}

type RowMapper = (fields: readonly string[], lineNumber: number, raw: string) => RowResult;

/** The header decides the row mapper; null (with an error) when the file cannot be mapped at all. */
function rowMapper(
  layout: CsvLayout,
  header: readonly string[] | null,
): { mapper: RowMapper; width: number | null } | { reason: string } {
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
export async function* parseCsv(
  text: AsyncIterable<string>,
  layout: CsvLayout,
  accountId: string | null,
): AsyncGenerator<StatementItem[]> {
  const builder = new StatementLineBuilder(0, accountId);
  const hasHeader = layout.kind === 'gateway' || layout.profile.headerRow;
  let mapping: ReturnType<typeof rowMapper> | null = hasHeader ? null : rowMapper(layout, null);
  const currencies = new Set<string>();
  for await (const records of csvRecords(text, layout.kind === 'gateway' ? ',' : layout.profile.delimiter)) {
    const items: StatementItem[] = [];
    for (const record of records) {
      if (record.kind === 'error') {
        items.push(record);
        continue;
      }
      if (mapping === null) {
        mapping = rowMapper(layout, record.fields);
        if ('reason' in mapping) items.push(statementError(record.lineNumber, mapping.reason));
        continue;
      }
      if ('reason' in mapping) break;
      if (mapping.width !== null && record.fields.length !== mapping.width) {
        const source = hasHeader ? 'the header has' : 'the profile expects';
        items.push(
          statementError(record.lineNumber, `the row has ${record.fields.length} columns, ${source} ${mapping.width}`),
        );
        continue;
      }
      const row = mapping.mapper(record.fields, record.lineNumber, record.raw);
      if (!row.ok) {
        for (const reason of row.reasons) items.push(statementError(record.lineNumber, reason));
        continue;
      }
      const built = builder.build(row.draft, row.bankId);
      if (Array.isArray(built)) items.push(...built);
      else {
        currencies.add(built.currency);
        items.push(built);
      }
    }
    if (items.length > 0) yield items;
    if (mapping !== null && 'reason' in mapping) break;
  }
  const closing: StatementItem[] = [];
  if (mapping === null && hasHeader) closing.push(statementError(1, 'the file is empty: no header row'));
  closing.push({
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
  });
  yield closing;
}
