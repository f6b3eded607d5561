import { setImmediate as nextTurn } from 'node:timers/promises';
import { RAW_CHARS_MAX, TEXT_CHUNK_CHARS_MAX } from './limits';

export type StatementInput = AsyncIterable<Buffer | Uint8Array | string>;

/** The input is not valid UTF-8: nothing after this point can be trusted, so reading stops. */
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

/**
 * Decodes the input as UTF-8 (the only encoding accepted: a Latin-1 file is refused, never guessed), drops a
 * leading byte order mark, and slices the text so that no consumer is handed more than TEXT_CHUNK_CHARS_MAX.
 * After every TEXT_CHUNK_CHARS_MAX characters the event loop gets a turn: parsing runs in the API process,
 * and one 256 KiB read would otherwise be parsed as one block while every other request waits.
 * A NUL character is refused like a bad byte: no text column can store it, and a statement that has one is
 * binary or UTF-16, not UTF-8 text.
 */
export async function* decodeUtf8(input: StatementInput): AsyncGenerator<string, void, undefined> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let newlinesSeen = 0;
  const slices = function* (text: string): Generator<string> {
    const nulAt = text.indexOf(NUL);
    if (nulAt !== -1) {
      throw new InputDecodeError(
        newlinesSeen + countNewlines(text.slice(0, nulAt)) + 1,
        'the line has a NUL character (U+0000): the file is binary or UTF-16, not UTF-8 text',
      );
    }
    newlinesSeen += countNewlines(text);
    for (let start = 0; start < text.length; start += TEXT_CHUNK_CHARS_MAX) {
      yield text.slice(start, start + TEXT_CHUNK_CHARS_MAX);
    }
  };
  let charsSinceTurn = 0;
  const emit = async function* (text: string): AsyncGenerator<string> {
    for (const slice of slices(text)) {
      yield slice;
      charsSinceTurn += slice.length;
      if (charsSinceTurn >= TEXT_CHUNK_CHARS_MAX) {
        charsSinceTurn = 0;
        await nextTurn();
      }
    }
  };
  let first = true;
  for await (const chunk of input) {
    if (typeof chunk === 'string') {
      // TextDecoder drops the byte order mark of byte input; text input gets the same treatment.
      yield* emit(first && chunk.startsWith('\uFEFF') ? chunk.slice(1) : chunk);
      first = false;
      continue;
    }
    first = false;
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      // Locate the bad byte's line with a lenient decode of the same chunk (its first replacement char).
      const lenient = new TextDecoder('utf-8').decode(chunk);
      const badAt = Math.max(0, lenient.indexOf('\uFFFD'));
      const lineNumber = newlinesSeen + countNewlines(lenient.slice(0, badAt)) + 1;
      throw new InputDecodeError(lineNumber, 'the file is not valid UTF-8 text (only UTF-8 is accepted)');
    }
    yield* emit(text);
  }
  let rest: string;
  try {
    rest = decoder.decode();
  } catch {
    throw new InputDecodeError(newlinesSeen + 1, 'the file ends inside a UTF-8 character (only UTF-8 is accepted)');
  }
  if (rest !== '') yield* emit(rest);
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
