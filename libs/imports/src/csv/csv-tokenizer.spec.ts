import { parse as csvParse } from 'csv-parse';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StatementError } from '../statement-items';
import { type CsvRecord, CsvTokenizer } from './csv-tokenizer';

// The tokenizer replaced csv-parse on the import's hot path (about 8 of the 13 µs per line went to
// csv-parse's per-byte state machine and its per-record context objects). csv-parse stays as the oracle:
// on any input both give the same records, or both refuse the file.

interface Tokenized {
  records: Array<{ lineNumber: number; fields: string[]; raw: string }>;
  refused: boolean;
}

function tokenize(
  text: string,
  delimiter: string,
  cuts: number[] = [],
  recordCharsMax?: number,
): Tokenized & { errors: StatementError[] } {
  const tokenizer = new CsvTokenizer(delimiter, recordCharsMax);
  const items: Array<CsvRecord | StatementError> = [];
  let from = 0;
  for (const cut of [...new Set(cuts.map((at) => at % (text.length + 1)))].sort((left, right) => left - right)) {
    items.push(...tokenizer.push(text.slice(from, cut)));
    from = cut;
  }
  items.push(...tokenizer.push(text.slice(from)), ...tokenizer.end());
  const records = items
    .filter((item): item is CsvRecord => item.kind === 'record')
    .map(({ lineNumber, fields, raw }) => ({ lineNumber, fields, raw }));
  const errors = items.filter((item): item is StatementError => item.kind === 'error');
  return { records, refused: errors.length > 0, errors };
}

/** csv-parse with the options the import used, and the line and raw text it gave (see csvParseLines). */
function oracle(text: string, delimiter: string): Promise<Tokenized> {
  return new Promise((resolve) => {
    const records: Tokenized['records'] = [];
    let refused = false;
    const parser = csvParse({
      delimiter,
      raw: true,
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      on_record: (record: unknown, context) => {
        const raw = (context.raw ?? '').replace(/^\n+/, '').replace(/\n$/, '');
        // csv-parse counts the line where a record ends; it starts as many line breaks earlier.
        records.push({
          lineNumber: context.lines - (raw.match(/\n/g)?.length ?? 0),
          fields: (record as { record: string[] }).record,
          raw,
        });
        return null;
      },
    });
    parser.on('error', () => (refused = true));
    parser.on('close', () => resolve({ records, refused }));
    parser.resume();
    parser.end(text);
  });
}

const DELIMITERS = [',', ';', '\t', '|'];

/** Text of CSV pieces: plain characters, delimiters, quotes, every kind of line break, a byte order mark. */
const csvSoup = (delimiter: string) =>
  fc
    .array(
      fc.constantFrom(
        'a',
        'b',
        ' ',
        'é',
        '€',
        delimiter,
        delimiter,
        '"',
        '""',
        '\n',
        '\n',
        '\r\n',
        '\r',
        '\uFEFF',
        'x y',
      ),
      { maxLength: 60 },
    )
    .map((pieces) => pieces.join(''));

/** Well-formed rows (fields quoted when they must be, or at random), with one line ending per file. */
const csvRows = (delimiter: string) =>
  fc
    .record({
      rows: fc.array(
        fc.array(
          fc.tuple(
            fc.string({ unit: fc.constantFrom('a', '1', ' ', '"', delimiter, '\n', '\r\n', 'ü'), maxLength: 8 }),
            fc.boolean(),
          ),
          { minLength: 1, maxLength: 5 },
        ),
        { maxLength: 8 },
      ),
      ending: fc.constantFrom('\n', '\r\n', '\r'),
      last: fc.boolean(),
    })
    .map(({ rows, ending, last }) => {
      const quoted = (value: string, force: boolean) =>
        force || /["\r\n]/.test(value) || value.includes(delimiter) ? `"${value.replaceAll('"', '""')}"` : value;
      const lines = rows.map((fields) => fields.map(([value, force]) => quoted(value, force)).join(delimiter));
      return lines.join(ending) + (last ? ending : '');
    });

/** A well-formed file with a few characters inserted or removed. */
const csvMutated = (delimiter: string) =>
  fc
    .tuple(
      csvRows(delimiter),
      fc.array(fc.tuple(fc.nat(), fc.constantFrom('', '"', '\n', '\r', delimiter, 'q')), { maxLength: 3 }),
    )
    .map(([text, edits]) =>
      edits.reduce((edited, [at, insert]) => {
        const cut = at % (edited.length + 1);
        return insert === ''
          ? edited.slice(0, cut) + edited.slice(cut + 1)
          : edited.slice(0, cut) + insert + edited.slice(cut);
      }, text),
    );

describe('CsvTokenizer against csv-parse', () => {
  for (const [name, arbitrary] of [
    ['random pieces', csvSoup],
    ['well-formed rows', csvRows],
    ['mutated rows', csvMutated],
  ] as const) {
    it(`agrees on ${name}: the same records in any chunking, or both refuse`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc
            .constantFrom(...DELIMITERS)
            .chain((delimiter) =>
              fc.tuple(fc.constant(delimiter), arbitrary(delimiter), fc.array(fc.nat(), { maxLength: 6 })),
            ),
          async ([delimiter, text, cuts]) => {
            const ours = tokenize(text, delimiter, cuts);
            const theirs = await oracle(text, delimiter);
            expect(ours.refused).toBe(theirs.refused);
            expect(ours.records.map((record) => record.fields)).toEqual(theirs.records.map((record) => record.fields));
            // csv-parse miscounts a CRLF inside quotes (two lines) and keeps stray CRs in its raw text:
            // its line numbers and raw text are the oracle only for text without CR.
            if (!text.includes('\r')) expect(ours.records).toEqual(theirs.records);
          },
        ),
        { numRuns: 400 },
      );
      // Bounded by its number of runs, not by time: a busy machine must not fail it.
    }, 60_000);
  }
});

describe('CsvTokenizer', () => {
  it('numbers a record by the line it starts on, also after quoted CRLF line breaks and skipped empty lines', () => {
    const { records } = tokenize('a,b\r\n"x\r\ny",c\r\n\r\nd,e\r\n', ',');
    expect(records).toEqual([
      { lineNumber: 1, fields: ['a', 'b'], raw: 'a,b' },
      { lineNumber: 2, fields: ['x\r\ny', 'c'], raw: '"x\r\ny",c' },
      { lineNumber: 5, fields: ['d', 'e'], raw: 'd,e' },
    ]);
  });

  it('takes the first line break as the record end: in a CR file, a CR ends records and counts lines', () => {
    expect(tokenize('a;b\rc;"d\re"\rf', ';').records.map(({ lineNumber, fields }) => [lineNumber, fields])).toEqual([
      [1, ['a', 'b']],
      [2, ['c', 'd\re']],
      [4, ['f']],
    ]);
  });

  it('refuses broken quoting with the line of the record, after the records before it', () => {
    const cases: Array<[string, number, string]> = [
      ['h\nok\n"never closed\n\nmore', 3, 'a quoted field is never closed'],
      ['h\n\n"closed"x,y\n', 3, 'a closing quote is followed by something other than a delimiter or line end'],
      [
        'h\nab"c\n',
        2,
        'a quote inside a field that does not start with one (quote the whole field and double the quote)',
      ],
      // csv-parse takes a NUL after a closing quote for the end of its buffer; a NUL is just a character.
      ['h\n"a"\u0000,b\n', 2, 'a closing quote is followed by something other than a delimiter or line end'],
    ];
    for (const [text, lineNumber, problem] of cases) {
      const { records, errors } = tokenize(text, ',', [1, 5]);
      expect(records[0]?.fields).toEqual(['h']);
      expect(errors).toEqual([
        { kind: 'error', lineNumber, reason: `CSV structure: ${problem} (the file is not read further)` },
      ]);
    }
  });

  it('refuses a record longer than its limit, also while the record is still arriving', () => {
    const limit = 20;
    const reason =
      `CSV structure: a record is longer than ${limit} characters (wrong delimiter or quote?) ` +
      '(the file is not read further)';
    expect(tokenize(`a\n${'x'.repeat(limit)}\nb\n`, ',', [], limit).errors).toEqual([]);
    expect(tokenize(`a\n${'x'.repeat(limit + 1)}\nb\n`, ',', [], limit).errors).toEqual([
      { kind: 'error', lineNumber: 2, reason },
    ]);
    const open = new CsvTokenizer(',', limit);
    const items = [...open.push('a\n"'), ...Array.from({ length: 40 }, () => open.push('y')).flat()];
    expect(items.at(-1)).toEqual({ kind: 'error', lineNumber: 2, reason });
    expect(open.stopped).toBe(true);
  });

  it('reads a record that arrives one character (UTF-16 unit) at a time, and drops one byte order mark', () => {
    // Text chunks may split a surrogate pair (decodeUtf8 slices long text); csv-parse made each half a U+FFFD.
    const text = '\uFEFFid,"note ""quoted"""\r\n1,"two\r\nlines 😀"\r\n';
    const { records } = tokenize(
      text,
      ',',
      Array.from({ length: text.length }, (_, index) => index),
    );
    expect(records.map(({ lineNumber, fields }) => [lineNumber, fields])).toEqual([
      [1, ['id', 'note "quoted"']],
      [2, ['1', 'two\r\nlines 😀']],
    ]);
  });

  it('refuses a delimiter that cannot separate fields', () => {
    for (const delimiter of ['"', '\n', '\r', ',,', '']) expect(() => new CsvTokenizer(delimiter)).toThrow(RangeError);
  });
});
