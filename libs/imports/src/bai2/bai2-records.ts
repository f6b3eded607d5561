import { type SourceLine, shown } from '../text-input';

// BAI2 as physical lines: a record is one line that starts with its two-digit type ("16,"), followed by any
// number of continuation lines ("88,") that carry on its fields. Fields are comma separated and a "/" ends a
// record's fields; only the text field of a 16 runs to the end of the line, commas and slashes included.

/** BAI2 records are 80 characters in most files; some banks send longer ones. Longer than this is refused. */
export const BAI2_LINE_CHARS_MAX = 4096;
/** Continuation (88) records of one record: a 16's text over a few lines, a 03's summaries over a few more. */
export const BAI2_CONTINUATIONS_PER_RECORD_MAX = 100;

const RECORD_START = /^(\d{2})(?:,|\/|$)/;

/** One logical record: its first physical line and its 88 continuations. */
export interface Bai2Record {
  type: string;
  /** The line of the record itself (where its errors are reported). */
  lineNumber: number;
  /** Each physical line's content after its "NN,". */
  pieces: string[];
  /** Each physical line's number. */
  lineNumbers: number[];
  /** The physical lines as written, for the line's raw copy. */
  lines: string[];
  /** Set when the record is already reported as an error (too many continuations). */
  refused: boolean;
}

type PhysicalLine = { kind: 'record'; type: string; content: string } | { kind: 'blank' } | { kind: 'not-a-record' };

/** What a physical line is: a record of a type, a blank line, or neither. */
function physicalLine({ text }: SourceLine): PhysicalLine {
  if (text.trim() === '') return { kind: 'blank' };
  const start = RECORD_START.exec(text);
  if (start === null) return { kind: 'not-a-record' };
  return { kind: 'record', type: start[1], content: text.slice(3) };
}

/**
 * Gathers physical lines into records: a record is complete when the next one starts, a line that is not a
 * record comes, or the file ends. Blank lines are skipped (they are no records and are not counted).
 */
export class RecordAssembler {
  private record: Bai2Record | null = null;

  constructor(
    private readonly onRecord: (record: Bai2Record) => void,
    private readonly onError: (lineNumber: number, reason: string) => void,
  ) {}

  accept(line: SourceLine): void {
    const physical = physicalLine(line);
    if (line.tooLong) this.onError(line.lineNumber, `line is longer than ${BAI2_LINE_CHARS_MAX} characters`);
    if (physical.kind === 'blank') return;
    if (physical.kind === 'not-a-record') {
      // The record before it ends here: its errors come first, in line order.
      this.finish();
      if (!line.tooLong)
        this.onError(
          line.lineNumber,
          `line ${shown(line.text)} is not a BAI2 record (a two-digit record type and ",")`,
        );
      return;
    }
    if (physical.type === '88') return this.continueRecord(line, physical.content);
    this.finish();
    this.record = {
      type: physical.type,
      lineNumber: line.lineNumber,
      pieces: [physical.content],
      lineNumbers: [line.lineNumber],
      lines: [line.text],
      refused: line.tooLong,
    };
  }

  /** Hands on the record being gathered, if any. */
  finish(): void {
    const record = this.record;
    this.record = null;
    if (record !== null) this.onRecord(record);
  }

  private continueRecord(line: SourceLine, content: string): void {
    const record = this.record;
    if (record === null)
      return this.onError(line.lineNumber, 'continuation record (88) with no record before it to continue');
    if (record.lines.length > BAI2_CONTINUATIONS_PER_RECORD_MAX && !record.refused) {
      record.refused = true;
      this.onError(line.lineNumber, `record has more than ${BAI2_CONTINUATIONS_PER_RECORD_MAX} continuation records`);
    }
    if (line.tooLong) record.refused = true;
    if (record.refused) return;
    record.pieces.push(content);
    record.lineNumbers.push(line.lineNumber);
    record.lines.push(line.text);
  }
}

/**
 * Reads a record's fields in order across its physical lines. A line's fields end at its first "/" (or at its
 * end, for the few banks that leave the slash out); the fields that follow are in the next 88 line, or absent
 * (blank). The text field of a 16 is read with text(), which takes everything that is left.
 */
export class FieldCursor {
  private piece = 0;
  private at = 0;
  private readonly fieldEnds: number[];
  /** The physical line (index into the pieces) of the field next() returned last: where its error is. */
  fieldPiece = 0;

  constructor(private readonly pieces: readonly string[]) {
    this.fieldEnds = pieces.map((piece) => {
      const slash = piece.indexOf('/');
      return slash === -1 ? piece.length : slash;
    });
  }

  /** Whether any field is left (a line ended by "/" has none after it). */
  hasMore(): boolean {
    this.skipEndedPieces();
    return this.piece < this.pieces.length;
  }

  /** The next field, '' when it is blank or there is none. */
  next(): string {
    this.skipEndedPieces();
    if (this.piece >= this.pieces.length) return '';
    this.fieldPiece = this.piece;
    const text = this.pieces[this.piece];
    const end = this.fieldEnds[this.piece];
    const comma = text.indexOf(',', this.at);
    if (comma === -1 || comma > end) {
      const field = text.slice(this.at, end);
      this.at = end + 1;
      return field;
    }
    const field = text.slice(this.at, comma);
    this.at = comma + 1;
    return field;
  }

  /** Whether every field left is blank (a trailing "," before the "/" leaves one blank field). */
  restIsBlank(): boolean {
    this.skipEndedPieces();
    for (let index = this.piece; index < this.pieces.length; index += 1) {
      const from = index === this.piece ? this.at : 0;
      if (this.pieces[index].slice(from, this.fieldEnds[index]).replaceAll(',', '').trim() !== '') return false;
    }
    return true;
  }

  /**
   * The text field: the rest of the record, commas and slashes included. Continuation lines join with
   * nothing between them: banks cut the text at the record length, inside a word as often as not (the
   * NatWest sample wraps "CLIE" / "NT" at 80 characters). A line that ends with "/" (the record's end, not
   * text: "16,699,971,,,/" has none) or with padding spaces ended at a word, so one space joins it.
   */
  text(): string {
    this.skipEndedPieces();
    let text = '';
    for (let index = this.piece; index < this.pieces.length; index += 1) {
      const part = index === this.piece ? this.pieces[index].slice(this.at) : this.pieces[index];
      const trimmed = part.endsWith('/') ? part.slice(0, -1) : part.trimEnd();
      text += trimmed.length < part.length ? `${trimmed} ` : part;
    }
    this.piece = this.pieces.length;
    return text.trim();
  }

  private skipEndedPieces(): void {
    while (this.piece < this.pieces.length && this.at > this.fieldEnds[this.piece]) {
      this.piece += 1;
      this.at = 0;
    }
  }
}
