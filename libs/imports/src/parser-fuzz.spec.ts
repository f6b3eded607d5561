import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type StatementFormat, parse } from './parse';

// Hostile files: real samples and our fixtures, mutated at random (bytes flipped, cut short, pieces
// repeated or spliced in). Whatever comes in, a parser answers with lines, statements and errors that
// name a line: it never throws anything else and never runs on without end.

const ROOT = resolve(__dirname, '..', '..', '..');
const SEEDS = (
  [
    { format: 'camt053', path: '../shared/statements/camt/camt053.v2.multi.statement.xml' },
    { format: 'camt053', path: '../shared/statements/camt/camt053.v8.xml' },
    { format: 'camt053', path: 'fixtures/statements/ok/camt053-v08-batch-reversal.xml' },
    { format: 'mt940', path: '../shared/statements/mt940/betterplace/sepa_mt9401.sta' },
    { format: 'mt940', path: '../shared/statements/mt940/jejik/rabobank.sta' },
    { format: 'mt940', path: 'fixtures/statements/ok/mt940-year-end.sta' },
    { format: 'csv:gateway', path: 'fixtures/statements/ok/gateway-balance.gateway.csv' },
    { format: 'csv:bank', path: 'fixtures/statements/ok/bank-thousands.bank.csv' },
  ] satisfies { format: StatementFormat; path: string }[]
).map((seed) => ({ format: seed.format as StatementFormat, path: resolve(ROOT, seed.path) }));

/** Items a parser yields for a mutated file; each must be one of its three kinds, and an error names a line. */
async function parseAll(format: StatementFormat, bytes: Buffer): Promise<number> {
  let items = 0;
  for await (const item of parse(format, Readable.from([bytes]))) {
    expect(['line', 'statement', 'error']).toContain(item.kind);
    if (item.kind === 'error') {
      expect(Number.isInteger(item.lineNumber) && item.lineNumber >= 0).toBe(true);
      expect(item.reason.length).toBeGreaterThan(0);
    }
    items += 1;
  }
  return items;
}

type Mutation = (bytes: Buffer) => Buffer;

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }).map(({ at, byte }) => (bytes: Buffer) => {
    const copy = Buffer.from(bytes);
    if (copy.length > 0) copy[at % copy.length] = byte;
    return copy;
  }),
  fc.nat().map((at) => (bytes: Buffer) => bytes.subarray(0, at % (bytes.length + 1))),
  fc
    .record({
      at: fc.nat(),
      text: fc.oneof(
        fc.string(),
        fc.constantFrom('<', '>', '&', ':61:', ':86:', '"', ',', '\r\n', '\u0000', '\uFFFD', '<Ntry>', '</Stmt>'),
      ),
    })
    .map(({ at, text }) => (bytes: Buffer) => {
      const cut = at % (bytes.length + 1);
      return Buffer.concat([bytes.subarray(0, cut), Buffer.from(text), bytes.subarray(cut)]);
    }),
  fc
    .record({ from: fc.nat(), length: fc.integer({ min: 1, max: 400 }), times: fc.integer({ min: 2, max: 20 }) })
    .map(({ from, length, times }) => (bytes: Buffer) => {
      const start = from % (bytes.length + 1);
      const piece = bytes.subarray(start, start + length);
      return Buffer.concat([
        bytes.subarray(0, start),
        ...Array.from({ length: times }, () => piece),
        bytes.subarray(start),
      ]);
    }),
);

describe.each(SEEDS)('$format parser on mutations of $path', ({ format, path }) => {
  const original = readFileSync(path);

  it('reads the untouched file', async () => {
    expect(await parseAll(format, original)).toBeGreaterThan(0);
  });

  it('answers every mutated file with lines, statements or errors, and nothing else', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 4 }), async (mutations) => {
        await parseAll(
          format,
          mutations.reduce<Buffer>((bytes, mutate) => mutate(bytes), original),
        );
      }),
      { numRuns: 150 },
    );
    // Bounded by its number of runs, not by time: a busy machine must not fail it.
  }, 60_000);
});
