import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { missingStatementSamples, STATEMENT_SAMPLES_DIR } from '../test/statement-samples';
import { type StatementFormat, parse } from './parse';

// Hostile files: real samples and our fixtures, mutated at random (bytes flipped, cut short, pieces
// repeated or spliced in). Whatever comes in, a parser answers with lines, statements and errors that
// name a line: it never throws anything else and never runs on without end.

const FIXTURES = resolve(__dirname, '..', '..', '..', 'fixtures', 'statements');
/** A third-party sample (skipped where the samples are absent) or one of our fixtures. */
const sample = (format: StatementFormat, file: string) => ({
  format,
  sample: true,
  path: resolve(STATEMENT_SAMPLES_DIR, file),
});
const fixture = (format: StatementFormat, file: string) => ({ format, sample: false, path: resolve(FIXTURES, file) });
const SEEDS = [
  sample('camt053', 'camt/camt053.v2.multi.statement.xml'),
  sample('camt053', 'camt/camt053.v8.xml'),
  fixture('camt053', 'ok/camt053-v08-batch-reversal.xml'),
  sample('mt940', 'mt940/betterplace/sepa_mt9401.sta'),
  sample('mt940', 'mt940/jejik/rabobank.sta'),
  fixture('mt940', 'ok/mt940-year-end.sta'),
  fixture('camt052', 'ok/camt052-v06-intraday.xml'),
  fixture('camt054', 'ok/camt054-v08-notification.xml'),
  sample('mt942', 'mt940/wolph/mBank-mt942.sta'),
  fixture('mt942', 'ok/mt942-interim.sta'),
  sample('bai2', 'bai2/nwb_example.bai2'),
  fixture('bai2', 'ok/bai2-accounts-groups.bai2'),
  fixture('csv:gateway', 'ok/gateway-balance.gateway.csv'),
  fixture('csv:bank', 'ok/bank-thousands.bank.csv'),
];

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

for (const { format, sample, path } of SEEDS) {
  const name = `${format} parser on mutations of ${path}`;
  describe.skipIf(sample && missingStatementSamples(name))(name, () => {
    // Read when the block runs, not when it is collected: a skipped block's file may not exist.
    let original: Buffer;
    beforeAll(() => {
      original = readFileSync(path);
    });

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
}
