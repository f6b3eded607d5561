import assert from 'node:assert/strict';

/**
 * The charsets a statement source may name. 'utf-8' means UTF-8 only (a byte that is not UTF-8 is refused);
 * any other names what a file that is not UTF-8 is written in (UTF-8 is still recognised first).
 */
export const STATEMENT_CHARSETS = ['utf-8', 'iso-8859-1', 'windows-1252', 'iso-8859-2', 'windows-1250'] as const;
export type StatementCharset = (typeof STATEMENT_CHARSETS)[number];

export function isStatementCharset(value: string): value is StatementCharset {
  return (STATEMENT_CHARSETS as readonly string[]).includes(value);
}

/** A charset read back from the database, whose CHECK constraint admits only these. */
export function storedCharset(value: string): StatementCharset {
  assert.ok(isStatementCharset(value), `stored charset ${value} is not a statement charset`);
  return value;
}

/**
 * The charset of a source that names none. MT940 (and MT942) allows only the SWIFT character set, so any other
 * letter comes from the bank's code page, in practice Windows-1252 in Western Europe. BAI2 is the same: the
 * standard's records are ASCII, and a letter beyond it (a "£" or an accent in a UK or US bank's text) comes
 * from the bank's mainframe code page. XML says its own encoding and CSV exports depend on who made them:
 * those stay UTF-8 only unless the source names a charset.
 */
export function defaultCharset(format: string): StatementCharset {
  return format === 'mt940' || format === 'mt942' || format === 'bai2' ? 'windows-1252' : 'utf-8';
}

// Windows-1252 at 0x80-0x9F, as the WHATWG Encoding Standard maps it (the five unassigned bytes stay C1
// controls). Node 20's TextDecoder reads 'windows-1252' as ISO-8859-1, so these bytes are mapped here.
const WINDOWS_1252_HIGH =
  '\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F' +
  '\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178';
const C1_CONTROLS = /[\u0080-\u009F]/g;

/** Decodes one chunk after another; single-byte charsets never fail and need no state between chunks. */
export interface ChunkDecoder {
  decode(bytes: Uint8Array): string;
}

/**
 * A decoder for a single-byte charset. ISO-8859-1 is read as Windows-1252, as the WHATWG standard (and every
 * browser) does: the two differ only at 0x80-0x9F, control characters that a real ISO-8859-1 text never has.
 */
export function singleByteDecoder(charset: Exclude<StatementCharset, 'utf-8'>): ChunkDecoder {
  if (charset === 'iso-8859-1' || charset === 'windows-1252') {
    return {
      decode: (bytes) =>
        Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
          .toString('latin1')
          .replace(C1_CONTROLS, (char) => WINDOWS_1252_HIGH[char.charCodeAt(0) - 0x80]),
    };
  }
  const decoder = new TextDecoder(charset);
  return { decode: (bytes) => decoder.decode(bytes) };
}

export type Utf8Verdict = 'valid' | 'invalid' | 'incomplete';

/** Whether the bytes from `at` start a well-formed UTF-8 sequence, or the chunk ends before it can tell. */
export function utf8SequenceAt(bytes: Uint8Array, at: number): Utf8Verdict {
  const lead = bytes[at];
  const length = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 ? 4 : 0;
  if (length === 0 || lead > 0xf4) return 'invalid';
  const end = Math.min(at + length, bytes.length);
  for (let index = at + 1; index < end; index += 1) if ((bytes[index] & 0xc0) !== 0x80) return 'invalid';
  if (at + length > bytes.length) return 'incomplete';
  try {
    // Overlong forms and surrogates pass the checks above; the standard decoder knows them all.
    new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(at, at + length));
    return 'valid';
  } catch {
    return 'invalid';
  }
}
