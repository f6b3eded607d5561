import { type StatementError, statementError } from '../statement-items';

/** One record (with quoted line breaks) longer than this is refused: usually a wrong delimiter or quote. */
export const CSV_RECORD_CHARS_MAX = 64 * 1024;

export interface CsvRecord {
  kind: 'record';
  /** 1-based line where the record starts. */
  lineNumber: number;
  fields: string[];
  /** The record's text without its line break. */
  raw: string;
}

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const BYTE_ORDER_MARK = '\uFEFF';

// Answers of the readers besides "the next field or record starts here".
const INCOMPLETE = -1;
const FAILED = -2;
const NOT_CLOSED = -3;
const BAD_CLOSING = -4;
const OPENING_QUOTE = -5;

// Each names the record's first line, wherever in the record the problem was noticed.
const STRUCTURE_PROBLEMS = {
  unclosed: 'a quoted field is never closed',
  closing: 'a closing quote is followed by something other than a delimiter or line end',
  opening: 'a quote inside a field that does not start with one (quote the whole field and double the quote)',
} as const;
type StructureProblem = keyof typeof STRUCTURE_PROBLEMS | 'long';

type RecordEnd = '\n' | '\r\n' | '\r';

/**
 * RFC 4180 records out of streamed text: fields separated by one delimiter character, a field in double
 * quotes may hold delimiters, line breaks and doubled quotes (""), empty lines are skipped, rows may differ
 * in width. As csv-parse (the differential test's oracle) does, the first line break outside quotes decides
 * the file's record end, CRLF, LF or CR; any other line break character is data. Lines are counted at LF
 * (at CR in a CR file). A quoting error ends the file: after a broken quote no later field boundary can be
 * trusted, so the tokenizer answers with that error and nothing more.
 */
export class CsvTokenizer {
  private readonly delimiterCode: number;
  private recordEnd: RecordEnd | null = null;
  /** Text of the record that did not end in the chunks seen so far, in pieces until a retry is due. */
  private pending: string[] = [];
  private pendingChars = 0;
  /** An incomplete record is read again once this much text waits: linear time even with tiny chunks. */
  private retryAtChars = 0;
  private lineNumber = 1;
  private started = false;
  private failed = false;

  constructor(
    delimiter: string,
    private readonly recordCharsMax = CSV_RECORD_CHARS_MAX,
  ) {
    if (delimiter.length !== 1 || '"\r\n'.includes(delimiter))
      throw new RangeError(`unusable CSV delimiter ${JSON.stringify(delimiter)}`);
    this.delimiterCode = delimiter.charCodeAt(0);
  }

  get stopped(): boolean {
    return this.failed;
  }

  /** The records that the text so far completes; an error item, if any, comes last and ends the file. */
  push(chunk: string): Array<CsvRecord | StatementError> {
    if (this.failed || chunk === '') return [];
    if (!this.started) {
      this.started = true;
      if (chunk.startsWith(BYTE_ORDER_MARK)) chunk = chunk.slice(1);
    }
    this.pending.push(chunk);
    this.pendingChars += chunk.length;
    if (this.pendingChars < this.retryAtChars) return [];
    return this.read(false);
  }

  /** The records of the text's end. */
  end(): Array<CsvRecord | StatementError> {
    if (this.failed) return [];
    return this.read(true);
  }

  private read(atEnd: boolean): Array<CsvRecord | StatementError> {
    const text = this.pending.length === 1 ? this.pending[0]! : this.pending.join('');
    const items: Array<CsvRecord | StatementError> = [];
    let position = 0;
    while (position < text.length && !this.failed) {
      const next = this.readRecord(text, position, atEnd, items);
      if (next === INCOMPLETE) break;
      if (next !== FAILED) position = next;
    }
    const rest = this.failed ? '' : text.slice(position);
    this.pending = rest === '' ? [] : [rest];
    this.pendingChars = rest.length;
    this.retryAtChars = Math.min(rest.length * 2, this.recordCharsMax + 3);
    // A record still open after more than the limit (plus a line break's 2 characters) is too long.
    if (rest.length > this.recordCharsMax + 2) this.fail(items, this.lineNumber, 'long');
    return items;
  }

  /**
   * Reads the record (or empty line) at `start` into items. Returns where the next one starts, INCOMPLETE
   * when the text ends before the record does (and more may come), or FAILED after adding the error.
   */
  private readRecord(text: string, start: number, atEnd: boolean, items: Array<CsvRecord | StatementError>): number {
    const emptyLine = this.recordEndAt(text, start, atEnd);
    if (emptyLine === INCOMPLETE) return INCOMPLETE;
    if (emptyLine > 0) {
      this.lineNumber += 1;
      return start + emptyLine;
    }
    const fields: string[] = [];
    let position = start;
    for (;;) {
      const field =
        text.charCodeAt(position) === QUOTE
          ? this.quotedField(text, position, atEnd, fields)
          : this.plainField(text, position, atEnd, fields);
      if (field === INCOMPLETE) return INCOMPLETE;
      if (field < 0)
        return this.fail(
          items,
          this.lineNumber,
          field === NOT_CLOSED ? 'unclosed' : field === BAD_CLOSING ? 'closing' : 'opening',
        );
      position = field;
      // After a field: a delimiter, the record's end or the end of the text (the caller checked which).
      if (position < text.length && text.charCodeAt(position) === this.delimiterCode) {
        position += 1;
        continue;
      }
      const endLength = position === text.length ? 0 : this.recordEndAt(text, position, atEnd);
      return this.complete(text, start, position, endLength, fields, items);
    }
  }

  private complete(
    text: string,
    start: number,
    end: number,
    endLength: number,
    fields: string[],
    items: Array<CsvRecord | StatementError>,
  ): number {
    if (end - start > this.recordCharsMax) return this.fail(items, this.lineNumber, 'long');
    items.push({ kind: 'record', lineNumber: this.lineNumber, fields, raw: text.slice(start, end) });
    this.lineNumber += countOf(text, this.recordEnd === '\r' ? '\r' : '\n', start, end + endLength);
    return end + endLength;
  }

  /** A field in quotes at `start`; returns the position after its closing quote, or a negative answer. */
  private quotedField(text: string, start: number, atEnd: boolean, fields: string[]): number {
    let value = '';
    let from = start + 1;
    for (;;) {
      const quote = text.indexOf('"', from);
      if (quote === -1) return atEnd ? NOT_CLOSED : INCOMPLETE;
      if (quote + 1 === text.length && !atEnd) return INCOMPLETE;
      if (text.charCodeAt(quote + 1) === QUOTE) {
        value += text.slice(from, quote + 1);
        from = quote + 2;
        continue;
      }
      value += text.slice(from, quote);
      const after = quote + 1;
      if (after < text.length && text.charCodeAt(after) !== this.delimiterCode) {
        const endLength = this.recordEndAt(text, after, atEnd);
        if (endLength === INCOMPLETE) return INCOMPLETE;
        if (endLength === 0) return BAD_CLOSING;
      }
      fields.push(value);
      return after;
    }
  }

  /** A field without quotes at `start`; returns the position of the delimiter or line break that ends it. */
  private plainField(text: string, start: number, atEnd: boolean, fields: string[]): number {
    const delimiterCode = this.delimiterCode;
    let position = start;
    for (; position < text.length; position++) {
      const code = text.charCodeAt(position);
      if (code === delimiterCode) break;
      if (code === QUOTE) return OPENING_QUOTE;
      if (code === LF || code === CR) {
        const endLength = this.recordEndAt(text, position, atEnd);
        if (endLength === INCOMPLETE) return INCOMPLETE;
        if (endLength > 0) break;
      }
    }
    if (position === text.length && !atEnd) return INCOMPLETE;
    fields.push(text.slice(start, position));
    return position;
  }

  /**
   * The length of the record end at `position` (0: none there), or INCOMPLETE when the text ends in a CR
   * that may start a CRLF. The first line break seen decides the file's record end.
   */
  private recordEndAt(text: string, position: number, atEnd: boolean): number {
    const code = text.charCodeAt(position);
    if (code !== LF && code !== CR) return 0;
    const crlfUndecided = code === CR && position + 1 === text.length && !atEnd;
    if (this.recordEnd === null) {
      if (crlfUndecided) return INCOMPLETE;
      this.recordEnd = code === LF ? '\n' : text.charCodeAt(position + 1) === LF ? '\r\n' : '\r';
    }
    if (this.recordEnd === '\n') return code === LF ? 1 : 0;
    if (this.recordEnd === '\r') return code === CR ? 1 : 0;
    if (code !== CR) return 0;
    if (crlfUndecided) return INCOMPLETE;
    return text.charCodeAt(position + 1) === LF ? 2 : 0;
  }

  private fail(items: Array<CsvRecord | StatementError>, lineNumber: number, problem: StructureProblem): number {
    this.failed = true;
    const reason =
      problem === 'long'
        ? `a record is longer than ${this.recordCharsMax} characters (wrong delimiter or quote?)`
        : STRUCTURE_PROBLEMS[problem];
    items.push(statementError(lineNumber, `CSV structure: ${reason} (the file is not read further)`));
    return FAILED;
  }
}

function countOf(text: string, character: string, start: number, end: number): number {
  let count = 0;
  for (let at = text.indexOf(character, start); at !== -1 && at < end; at = text.indexOf(character, at + 1)) count += 1;
  return count;
}
