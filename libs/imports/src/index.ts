export { balanceCheck, balanceProblem, type BalanceCheck, type LineAmount } from './balance-check';
export { BANK_CSV_PROFILE, CSV_COLUMNS_MAX, type CsvProfile, csvProfileSchema } from './csv/csv-profile';
export { defaultCharset, isStatementCharset, STATEMENT_CHARSETS, type StatementCharset } from './charsets';
export { CSV_DATE_FORMATS, type CsvDateFormat } from './dates';
export { IDENTICAL_LINE_KEYS_PER_STATEMENT_MAX } from './line-identity';
export { DESCRIPTION_CHARS_MAX, FIELD_CHARS_MAX, PARSE_ERRORS_MAX, RAW_CHARS_MAX } from './limits';
export { XML_START_TAG_CHARS_MAX } from './camt/xml-element-limits';
export {
  COLLECTED_STATEMENTS_MAX,
  type CollectedStatements,
  type CollectOptions,
  collectStatement,
  INTERIM_FORMATS,
  isInterimFormat,
  parse,
  parseBatches,
  type ParseOptions,
  type StatementFormat,
} from './parse';
export type {
  Counterparty,
  LineReferences,
  StatementBalance,
  StatementError,
  StatementFormatFamily,
  StatementHeader,
  StatementItem,
  StatementLine,
} from './statement-items';
export type { StatementInput } from './text-input';
export { ImportsModule } from './importing/imports.module';
export {
  ImportStatementUseCase,
  IMPORT_FILE_BYTES_MAX,
  IMPORT_LINES_MAX,
  type ImportResult,
} from './importing/import-statement.use-case';
export { CreateSourceUseCase, ListSourcesUseCase, SaveCsvProfileUseCase } from './importing/sources.use-cases';
export {
  GetImportUseCase,
  GetStatementLineUseCase,
  ListImportLinesUseCase,
  ListImportsUseCase,
} from './importing/import-reads.use-cases';
export type {
  ImportView,
  SourceView,
  StatementLineListView,
  StatementSummary,
  StoredLineView,
} from './importing/import.views';
export { StatementSourceReader, type StatementSource, type BrokenStatement } from './importing/statement-source-reader';
export { StatementLineReader } from './importing/statement-line-reader';
export type { LineSummary } from './importing/import.repository';
export {
  DETECTABLE_FORMATS,
  DETECTION_PREFIX_BYTES_MAX,
  type DetectedFormat,
  detectFormat,
  detectInputFormat,
} from './format-detection';
