import { isAscii } from 'node:buffer';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { type ChunkDecoder, type StatementCharset, singleByteDecoder, utf8SequenceAt } from './charsets';
import { RAW_CHARS_MAX, TEXT_CHUNK_CHARS_MAX } from './limits';

export type StatementInput = AsyncIterable<Buffer | Uint8Array | string>;

/** The input cannot be decoded: nothing after this point can be trusted, so reading stops. */
export class InputDecodeError extends Error {
  override readonly name = 'InputDecodeError';

  constructor(
    readonly lineNumber: number,
    message: string,
  ) {
    super(message);
  }
}

function countNewlines(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count += 1;
  return count;
}

const NUL = '\u0000';

const NOT_UTF8 = 'the file is not valid UTF-8 text (only UTF-8 is accepted)';
const MIXED = 'the file is not valid UTF-8 text, though its first letters beyond ASCII were UTF-8: it mixes encodings';

function firstNonAscii(bytes: Uint8Array): number {
  // Native check first: most statements are ASCII throughout, and a byte loop in JS costs more than the parse of
  // some formats' lines.
  if (isAscii(bytes)) return -1;
  for (let index = 0; index < bytes.length; index += 1) if (bytes[index] >= 0x80) return index;
  return -1;
}

/** Hands decoded text on in bounded slices, counting its lines, dropping a BOM at the start, refusing NUL. */
class DecodedText {
  /** Newlines handed on so far: the line of the next character is this plus 1. */
  newlinesSeen = 0;
  private first = true;
  private charsSinceTurn = 0;

  /** The line of a character at `offset` in text that has not been handed on yet. */
  lineAt(text: string, offset: number): number {
    return this.newlinesSeen + countNewlines(text.slice(0, offset)) + 1;
  }

  async *emit(text: string): AsyncGenerator<string> {
    const nulAt = text.indexOf(NUL);
    if (nulAt !== -1) {
      throw new InputDecodeError(
        this.lineAt(text, nulAt),
        'the line has a NUL character (U+0000): the file is binary or UTF-16, not text',
      );
    }
    this.newlinesSeen += countNewlines(text);
    // TextDecoder keeps the byte order mark here (ignoreBOM), so that only one at the very start is dropped.
    const start = this.first && text.startsWith('\uFEFF') ? 1 : 0;
    if (text !== '') this.first = false;
    for (let at = start; at < text.length; at += TEXT_CHUNK_CHARS_MAX) {
      const slice = text.slice(at, at + TEXT_CHUNK_CHARS_MAX);
      yield slice;
      this.charsSinceTurn += slice.length;
      if (this.charsSinceTurn >= TEXT_CHUNK_CHARS_MAX) {
        this.charsSinceTurn = 0;
        await nextTurn();
      }
    }
  }
}

/** A streaming UTF-8 decoder that reports the line of the first bad byte with `reason`. */
function utf8Decoder(utf8: InstanceType<typeof TextDecoder>, out: DecodedText, reason: string): ChunkDecoder {
  return {
    decode: (bytes) => {
      try {
        return utf8.decode(bytes, { stream: true });
      } catch {
        // Locate the bad byte's line with a lenient decode of the same bytes (its first replacement char).
        const lenient = new TextDecoder('utf-8').decode(bytes);
        throw new InputDecodeError(out.lineAt(lenient, Math.max(0, lenient.indexOf('\uFFFD'))), reason);
      }
    },
  };
}

/**
 * Decodes the input, drops a leading byte order mark, and slices the text so that no consumer is handed more
 * than TEXT_CHUNK_CHARS_MAX. UTF-8 is recognised first: the file's first character beyond ASCII decides. If
 * it is a UTF-8 sequence (a BOM is one), the file is UTF-8 and a later byte that is not is refused (a file in
 * two encodings cannot be read exactly). If it is not, the file is in `charset`; with 'utf-8' it is refused.
 * Everything before that character is ASCII, the same in every supported charset, so nothing is guessed.
 * `onCharset` hears the charset used once it is known (an ASCII file is UTF-8).
 * After every TEXT_CHUNK_CHARS_MAX characters the event loop gets a turn: parsing runs in the API process,
 * and one 256 KiB read would otherwise be parsed as one block while every other request waits.
 * A NUL character is refused like a bad byte: no text column can store it, and a statement that has one is
 * binary or UTF-16, not text.
 */
export async function* decodeText(
  input: StatementInput,
  charset: StatementCharset = 'utf-8',
  onCharset?: (used: StatementCharset) => void,
): AsyncGenerator<string, void, undefined> {
  const out = new DecodedText();
  const ascii = new TextDecoder('utf-8');
  const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let decoder: ChunkDecoder | null = null;
  let used: StatementCharset = 'utf-8';
  /** Bytes from the first non-ASCII byte on, while too few have come to tell whether they are UTF-8. */
  let held: Uint8Array | null = null;
  const decide = (utf8Sequence: boolean): ChunkDecoder => {
    used = utf8Sequence || charset === 'utf-8' ? 'utf-8' : charset;
    onCharset?.(used);
    if (used !== 'utf-8') return singleByteDecoder(used);
    return utf8Decoder(utf8, out, utf8Sequence && charset !== 'utf-8' ? MIXED : NOT_UTF8);
  };
  for await (const chunk of input) {
    if (typeof chunk === 'string') {
      decoder ??= decide(true);
      yield* out.emit(chunk);
      continue;
    }
    const bytes: Uint8Array = held === null ? chunk : Buffer.concat([held, chunk]);
    held = null;
    if (decoder === null) {
      const at = firstNonAscii(bytes);
      const verdict = at === -1 ? 'ascii' : utf8SequenceAt(bytes, at);
      if (verdict === 'ascii' || verdict === 'incomplete') {
        yield* out.emit(ascii.decode(at === -1 ? bytes : bytes.subarray(0, at)));
        if (verdict === 'incomplete') held = Uint8Array.from(bytes.subarray(at));
        continue;
      }
      decoder = decide(verdict === 'valid');
    }
    yield* out.emit(decoder.decode(bytes));
  }
  // The file ends inside what began as a UTF-8 sequence: it is not one.
  if (held !== null) yield* out.emit(decide(false).decode(held));
  else if (decoder === null) onCharset?.('utf-8');
  let rest: string;
  try {
    rest = used === 'utf-8' ? utf8.decode() : '';
  } catch {
    throw new InputDecodeError(out.newlinesSeen + 1, 'the file ends inside a UTF-8 character (only UTF-8 is accepted)');
  }
  if (rest !== '') yield* out.emit(rest);
}

export interface SourceLine {
  lineNumber: number;
  /** Without the line break; cut at the reader's limit when tooLong. */
  text: string;
  tooLong: boolean;
}

/**
 * Splits text into lines (LF or CRLF), numbered from 1. A line longer than lineCharsMax is reported as
 * tooLong with only its first lineCharsMax characters kept, so one endless line cannot exhaust memory.
 */
export async function* readLines(text: AsyncIterable<string>, lineCharsMax: number): AsyncGenerator<SourceLine> {
  let current = '';
  let tooLong = false;
  let lineNumber = 1;
  const take = (piece: string): void => {
    if (tooLong) return;
    if (current.length + piece.length > lineCharsMax) {
      current = (current + piece.slice(0, lineCharsMax - current.length)).slice(0, lineCharsMax);
      tooLong = true;
      return;
    }
    current += piece;
  };
  for await (const chunk of text) {
    let start = 0;
    for (let end = chunk.indexOf('\n'); end !== -1; end = chunk.indexOf('\n', start)) {
      take(chunk.slice(start, end));
      yield { lineNumber, text: current.endsWith('\r') ? current.slice(0, -1) : current, tooLong };
      lineNumber += 1;
      current = '';
      tooLong = false;
      start = end + 1;
    }
    take(chunk.slice(start));
  }
  if (current !== '' || tooLong) {
    yield { lineNumber, text: current.endsWith('\r') ? current.slice(0, -1) : current, tooLong };
  }
}

const TRUNCATION_MARK = '...[cut]';

/** A bounded display copy of source text. */
export function boundedRaw(text: string): string {
  if (text.length <= RAW_CHARS_MAX) return text;
  return text.slice(0, RAW_CHARS_MAX - TRUNCATION_MARK.length) + TRUNCATION_MARK;
}

/** Quoted, bounded echo of input inside an error message, so stray spaces are visible and logs stay small. */
export function shown(text: string, charsMax = 40): string {
  return JSON.stringify(text.length > charsMax ? `${text.slice(0, charsMax)}...` : text);
}
