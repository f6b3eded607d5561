import { describe, expect, it } from 'vitest';
import { defaultCharset, type StatementCharset } from './charsets';
import { decodeText, InputDecodeError } from './text-input';

async function decoded(
  chunks: number[][],
  charset: StatementCharset,
): Promise<{ text: string; used: StatementCharset[] }> {
  const used: StatementCharset[] = [];
  async function* input() {
    for (const chunk of chunks) yield Uint8Array.from(chunk);
  }
  let text = '';
  for await (const piece of decodeText(input(), charset, (each) => used.push(each))) text += piece;
  return { text, used };
}

const bytesOf = (text: string): number[] => [...Buffer.from(text, 'latin1')];

describe('decodeText', () => {
  it('reads each Windows-1252 byte from 0x80 to 0x9F as the standard maps it, ISO-8859-1 alike', async () => {
    const high = Array.from({ length: 32 }, (_, index) => 0x80 + index);
    const expected =
      '\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F' +
      '\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178';
    for (const charset of ['windows-1252', 'iso-8859-1'] as const) {
      expect(await decoded([high, [0xe9, 0xff]], charset)).toEqual({ text: `${expected}éÿ`, used: [charset] });
    }
  });

  it('calls an ASCII file UTF-8, whatever the fallback', async () => {
    expect(await decoded([bytesOf(':20:X\n'), bytesOf(':25:A\n')], 'windows-1250')).toEqual({
      text: ':20:X\n:25:A\n',
      used: ['utf-8'],
    });
  });

  it('decides at the first non-ASCII character, even split across chunks', async () => {
    // "ó" in UTF-8 is C3 B3; split over two chunks it is still recognised as UTF-8.
    expect(
      await decoded(
        [
          [0x41, 0xc3],
          [0xb3, 0x42],
        ],
        'windows-1250',
      ),
    ).toEqual({ text: 'AóB', used: ['utf-8'] });
    // C3 then an ASCII letter is not UTF-8: the file is Windows-1250 ("Ă" is C3 there).
    expect(await decoded([[0x41, 0xc3], [0x42]], 'windows-1250')).toEqual({ text: 'AĂB', used: ['windows-1250'] });
    // The file ends inside what began as a UTF-8 sequence: not UTF-8.
    expect(await decoded([[0x41, 0xe2, 0x82]], 'windows-1252')).toEqual({ text: 'Aâ‚', used: ['windows-1252'] });
  });

  it('drops a byte order mark only at the start, also when it comes one byte at a time', async () => {
    expect(await decoded([[0xef], [0xbb], [0xbf], bytesOf('A')], 'windows-1252')).toEqual({
      text: 'A',
      used: ['utf-8'],
    });
    expect((await decoded([bytesOf('A'), [0xef, 0xbb, 0xbf]], 'windows-1252')).text).toBe('A\uFEFF');
  });

  it('refuses a NUL character in a single-byte charset too, at its line', async () => {
    await expect(decoded([[...bytesOf('a\nb'), 0xe9, 0x00]], 'windows-1252')).rejects.toEqual(
      new InputDecodeError(2, 'the line has a NUL character (U+0000): the file is binary or UTF-16, not text'),
    );
  });
});

describe('defaultCharset', () => {
  it('reads SWIFT formats (MT940, MT942) as windows-1252, camt and CSV as UTF-8 only', () => {
    expect(['mt940', 'mt942', 'camt053', 'camt052', 'camt054', 'csv:bank'].map(defaultCharset)).toEqual([
      'windows-1252',
      'windows-1252',
      'utf-8',
      'utf-8',
      'utf-8',
      'utf-8',
    ]);
  });
});
