import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { balanceCheck, collectStatement } from '@ledger/imports';
import { comparable, fileInput, fixtureFormat, OWN_FIXTURES } from '../test/statement-files';

const STATEMENT_FILE = /\.(xml|sta|csv)$/;
const LINES_MAX = 1000;

function statementFiles(kind: 'ok' | 'not-ok'): string[] {
  return readdirSync(path.join(OWN_FIXTURES, kind))
    .filter((file) => STATEMENT_FILE.test(file))
    .sort();
}

async function collectFixture(kind: 'ok' | 'not-ok', file: string, chunkBytes?: number) {
  const fullPath = path.join(OWN_FIXTURES, kind, file);
  const { format, charset, csvProfiles } = fixtureFormat(fullPath);
  return collectStatement(format, fileInput(fullPath, chunkBytes), { linesMax: LINES_MAX, csvProfiles, charset });
}

describe('ok fixtures', () => {
  it('has a fixture for every format and built-in profile', () => {
    const files = statementFiles('ok');
    for (const ending of ['.xml', '.sta', '.gateway.csv', '.bank.csv', '.custom.csv']) {
      expect(
        files.some((file) => file.endsWith(ending)),
        ending,
      ).toBe(true);
    }
  });

  it('has an ok and a not-ok fixture for every interim format, named by it', () => {
    for (const kind of ['ok', 'not-ok'] as const) {
      const files = statementFiles(kind);
      for (const format of ['camt052', 'camt054', 'mt942']) {
        expect(
          files.some((file) => file.startsWith(`${format}-`)),
          `${kind} ${format}`,
        ).toBe(true);
      }
    }
  });

  for (const file of statementFiles('ok')) {
    it(`${file} gives exactly its .expected.json, whatever the chunk size`, async () => {
      const expected: unknown = JSON.parse(
        readFileSync(path.join(OWN_FIXTURES, 'ok', `${file}.expected.json`), 'utf8'),
      );
      for (const chunkBytes of [1, 13, 64 * 1024]) {
        const collected = await collectFixture('ok', file, chunkBytes);
        expect(collected.errors).toEqual([]);
        expect(comparable(collected)).toEqual(expected);
      }
    });

    it(`${file}: every statement with both balances adds up, amounts are bigint`, async () => {
      const { statements, lines } = await collectFixture('ok', file);
      for (const line of lines) expect(typeof line.amountMinor).toBe('bigint');
      const balanced = statements.filter((each) => each.openingBalance !== null && each.closingBalance !== null);
      for (const statement of balanced) {
        const check = balanceCheck(
          statement,
          lines.filter((line) => line.statementIndex === statement.statementIndex),
        );
        expect(check).toEqual({
          ok: true,
          expectedClosingMinor: statement.closingBalance?.amountMinor,
          actualClosingMinor: statement.closingBalance?.amountMinor,
        });
      }
    });
  }
});

describe('not-ok fixtures', () => {
  const readme = readFileSync(path.join(OWN_FIXTURES, 'README.md'), 'utf8');

  for (const file of statementFiles('not-ok')) {
    it(`${file} gives exactly the errors of its .errors.json, listed in the README`, async () => {
      const expected = JSON.parse(
        readFileSync(path.join(OWN_FIXTURES, 'not-ok', `${file}.errors.json`), 'utf8'),
      ) as Array<{ lineNumber: number; reason: string }>;
      const collected = await collectFixture('not-ok', file);
      expect(collected.errors.map(({ lineNumber, reason }) => ({ lineNumber, reason }))).toEqual(expected);
      expect(expected.length).toBeGreaterThan(0);
      const section = readme.slice(readme.indexOf(`### ${file}`));
      expect(section.length, `README section for ${file}`).toBeLessThan(readme.length);
      for (const { lineNumber } of expected) expect(section).toContain(`| ${lineNumber} |`);
    });
  }
});
