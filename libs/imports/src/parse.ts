import assert from 'node:assert/strict';
import { parseBai2 } from './bai2/bai2-parser';
import { parseCamt052, parseCamt053, parseCamt054 } from './camt/camt053-parser';
import { BANK_CSV_PROFILE, type CsvProfile, csvProfileSchema } from './csv/csv-profile';
import { parseCsv, type CsvLayout } from './csv/csv-parser';
import { PARSE_ERRORS_MAX } from './limits';
import { parseMt940, parseMt942 } from './mt940/mt940-parser';
import { ownStrings } from './own-text';
import {
  type StatementError,
  statementError,
  type StatementHeader,
  type StatementItem,
  type StatementLine,
} from './statement-items';
import type { StatementCharset } from './charsets';
import { decodeText, InputDecodeError, type StatementInput } from './text-input';

/** 'csv:gateway' and 'csv:bank' are built in; 'csv:<name>' looks the name up in options.csvProfiles. */
export type StatementFormat = 'camt053' | 'camt052' | 'camt054' | 'mt940' | 'mt942' | 'bai2' | `csv:${string}`;

/**
 * The formats whose lines are interim: an intraday report (camt.052, MT942) or a notification (camt.054)
 * that the end-of-day statement (camt.053, MT940) of the account books again. Their lines are stored and
 * matched like any other, marked interim until a final statement brings the same line (same externalId).
 */
export const INTERIM_FORMATS: ReadonlySet<string> = new Set(['camt052', 'camt054', 'mt942']);

export function isInterimFormat(format: string): boolean {
  return INTERIM_FORMATS.has(format);
}

export interface ParseOptions {
  /** The account a CSV file belongs to (CSV files do not say); ignored by camt, MT940/MT942 and BAI2. */
  accountId?: string;
  /** Custom CSV profiles by name, e.g. a tenant's stored profiles; validated with csvProfileSchema. */
  csvProfiles?: Readonly<Record<string, CsvProfile>>;
  /** What a file that is not UTF-8 is written in; 'utf-8' (the default) refuses it. See decodeText. */
  charset?: StatementCharset;
  /** Hears the charset the file was read in, once it is known. */
  onCharset?: (used: StatementCharset) => void;
}

/**
 * A format's parser: each step is the items one chunk of text made, in file order. Handed over a chunk at a
 * time, not item by item: every step of an async generator costs promises (more with async context tracking,
 * which the importer's transaction runs under), and a chunk holds dozens of lines.
 */
type FormatParser = (text: AsyncIterable<string>) => AsyncGenerator<StatementItem[]>;

function csvLayout(name: string, options: ParseOptions): CsvLayout {
  if (name === 'gateway') return { kind: 'gateway' };
  if (name === 'bank') return { kind: 'columns', profile: BANK_CSV_PROFILE };
  const custom = options.csvProfiles?.[name];
  if (custom === undefined) throw new RangeError(`unknown CSV profile ${JSON.stringify(name)}`);
  // A stored profile was validated when it was saved; checking again here costs nothing and catches bugs.
  return { kind: 'columns', profile: csvProfileSchema.parse(custom) };
}

function formatParser(format: StatementFormat, options: ParseOptions): FormatParser {
  if (format === 'camt053') return parseCamt053;
  if (format === 'camt052') return parseCamt052;
  if (format === 'camt054') return parseCamt054;
  if (format === 'mt940') return parseMt940;
  if (format === 'mt942') return parseMt942;
  if (format === 'bai2') return parseBai2;
  if (typeof format === 'string' && format.startsWith('csv:')) {
    const layout = csvLayout(format.slice('csv:'.length), options);
    return (text) => parseCsv(text, layout, options.accountId ?? null);
  }
  throw new RangeError(`unknown statement format ${JSON.stringify(format)}`);
}

/** Checks the order every parser promises, and stops after PARSE_ERRORS_MAX errors. */
class ItemOrderCheck {
  private statementsSeen = 0;
  private linesOfStatement = 0;
  private errors = 0;

  /** Hands the item on into out; false after too many errors (the reading stops, said by one more error). */
  checked(item: StatementItem, out: StatementItem[]): boolean {
    // Lines precede their statement item; a parser that breaks this order is a bug, not bad input.
    if (item.kind === 'line') {
      assert.equal(
        item.statementIndex,
        this.statementsSeen,
        'a line must belong to the statement item that follows it',
      );
      this.linesOfStatement += 1;
    } else if (item.kind === 'statement') {
      assert.equal(item.statementIndex, this.statementsSeen, 'statement items must come in order');
      assert.equal(item.lineCount, this.linesOfStatement, 'a statement item must count the lines yielded for it');
      this.statementsSeen += 1;
      this.linesOfStatement = 0;
    }
    // A statement's header is kept by the caller to the end of the file: its own copy, not a view of a chunk.
    out.push(item.kind === 'statement' ? ownStrings(item).value : item);
    if (item.kind !== 'error') return true;
    this.errors += 1;
    if (this.errors < PARSE_ERRORS_MAX) return true;
    out.push(statementError(item.lineNumber, `more than ${PARSE_ERRORS_MAX} errors; stopped reading the file`));
    return false;
  }
}

async function* checkedBatches(
  parser: FormatParser,
  input: StatementInput,
  options: ParseOptions,
): AsyncGenerator<StatementItem[]> {
  const order = new ItemOrderCheck();
  try {
    for await (const items of parser(decodeText(input, options.charset, options.onCharset))) {
      const out: StatementItem[] = [];
      let going = true;
      for (let index = 0; index < items.length && going; index += 1) going = order.checked(items[index], out);
      if (out.length > 0) yield out;
      if (!going) return;
    }
  } catch (error) {
    if (!(error instanceof InputDecodeError)) throw error;
    yield [statementError(error.lineNumber, error.message)];
  }
}

/**
 * Streams the items of a statement file a chunk at a time (each step one array, in file order): lines, then
 * their statement, and errors (the file is still read to the end so that every bad line is reported, except
 * after malformed XML, a CSV quoting error or text that cannot be decoded, where nothing that follows can be
 * trusted). An unknown format or profile throws at once: it is the caller's mistake, not the file's.
 */
export function parseBatches(
  format: StatementFormat,
  input: StatementInput,
  options: ParseOptions = {},
): AsyncGenerator<StatementItem[]> {
  return checkedBatches(formatParser(format, options), input, options);
}

/** The items of parseBatches one at a time (the format or profile is checked at once, as there). */
export function parse(
  format: StatementFormat,
  input: StatementInput,
  options: ParseOptions = {},
): AsyncGenerator<StatementItem, void, undefined> {
  return itemsOf(parseBatches(format, input, options));
}

async function* itemsOf(batches: AsyncGenerator<StatementItem[]>): AsyncGenerator<StatementItem, void, undefined> {
  for await (const items of batches) yield* items;
}

export interface CollectOptions extends ParseOptions {
  /** Lines kept in memory at most; more is reported as an error and reading stops. */
  linesMax: number;
}

export interface CollectedStatements {
  statements: StatementHeader[];
  lines: StatementLine[];
  errors: StatementError[];
  /** The charset the file was read in. */
  charset: StatementCharset;
}

/** Statements kept by collectStatement: one file rarely has more than a few hundred. */
export const COLLECTED_STATEMENTS_MAX = 10_000;

/** Parses a small file into memory, for tests and small uploads; stays bounded by linesMax. */
export async function collectStatement(
  format: StatementFormat,
  input: StatementInput,
  options: CollectOptions,
): Promise<CollectedStatements> {
  assert.ok(Number.isSafeInteger(options.linesMax) && options.linesMax >= 0, 'linesMax must be a non-negative integer');
  const collected: CollectedStatements = { statements: [], lines: [], errors: [], charset: 'utf-8' };
  const onCharset = (used: StatementCharset): void => {
    collected.charset = used;
    options.onCharset?.(used);
  };
  for await (const item of parse(format, input, { ...options, onCharset })) {
    if (item.kind === 'error') collected.errors.push(item);
    else if (item.kind === 'line' && collected.lines.length >= options.linesMax) {
      collected.errors.push(
        statementError(
          item.lineNumber,
          `more than ${options.linesMax} statement lines; stream the file with parse() instead`,
        ),
      );
      break;
    } else if (item.kind === 'line') collected.lines.push(item);
    else if (collected.statements.length >= COLLECTED_STATEMENTS_MAX) {
      collected.errors.push(
        statementError(item.lineNumber, `more than ${COLLECTED_STATEMENTS_MAX} statements in one file`),
      );
      break;
    } else collected.statements.push(item);
  }
  return collected;
}
