import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  balanceCheck,
  balanceProblem,
  collectStatement,
  defaultCharset,
  detectFormat,
  type StatementFormat,
} from '@ledger/imports';
import { DomainError } from '@ledger/errors';
import { detectedImportFormat } from '../src/importing/import-format';
import { comparable, fileInput, fixtureFormat, OWN_FIXTURES } from './statement-files';
import { itWithStatementSamples, STATEMENT_SAMPLES_DIR } from './statement-samples';

// The corpus: every statement file we have, each against its outcome checked in.
// - fixtures/statements/ok and not-ok (ours): the format by the file's name (a custom CSV profile cannot be
//   detected), compared with the .expected.json / .errors.json beside each; detection must agree with the name.
// - the third-party samples (STATEMENT_SAMPLES_DIR): the format by detection, as an import without a format
//   reads them, compared with libs/imports/test/corpus/<folder>/<file>.expected.json: every line's amount,
//   currency and references, each statement's net, balances and warnings, or the exact refusal.
// CORPUS_UPDATE=1 npx vitest run libs/imports/test/corpus.spec.ts rewrites all of these expected files from
// what the parsers give now; review the diff before committing it.
const UPDATE = process.env.CORPUS_UPDATE === '1';
const LINES_MAX = 10_000;
const CORPUS_EXPECTED = path.join(__dirname, 'corpus');
const STATEMENT_FILE = /\.(xml|sta|csv|bai2)$/;

/** Fixtures whose name gives another format than their first bytes, on purpose. */
const DETECTED_OTHERWISE: Readonly<Record<string, string | null>> = {
  'camt053-given-camt054.xml': 'camt054',
  'custom-bad.custom.csv': null,
  'custom-direction.custom.csv': null,
  'custom-semicolon.custom.csv': null,
  // An MT942 with a :62F: it must not have: a statement balance is what tells MT940 from MT942 without envelope.
  'mt942-bad-report.sta': 'mt940',
};

const FRAGMENT = 'a fragment (one tag or a few) without :20:, written to test one field: not a statement';
/** Why each refused sample is refused rightly; every other sample imports whole. */
const REFUSED_RIGHTLY: Readonly<Record<string, string>> = {
  'camt/camt053.v2.wrong.xml': 'a camt.053 document without a statement (Stmt) in it',
  'mt940/betterplace/amount_formats.sta': FRAGMENT,
  'mt940/betterplace/currency_in_25.sta': FRAGMENT,
  'mt940/betterplace/empty_86.sta': FRAGMENT,
  'mt940/betterplace/empty_entry_date.sta': FRAGMENT,
  'mt940/betterplace/missing_crlf_at_end.sta': FRAGMENT,
  'mt940/cmxl/account_balance_debit.sta': FRAGMENT,
  'mt940/cmxl/available_balance.sta': FRAGMENT,
  'mt940/cmxl/statement_details.sta': FRAGMENT,
  'mt940/cmxl/statement_line.sta': FRAGMENT,
  'mt940/wolph/self-provided-sparkassen.sta': `${FRAGMENT} (and a :61: and a tag broken across lines)`,
  'mt940/wolph/invalid_statement.sta': 'not a statement at all: numbered lines of text',
  'mt940/wolph/multiline.sta': 'a :61: appended after the statement ended (after -), belonging to no statement',
};

function statementFiles(directory: string): string[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .filter((file) => STATEMENT_FILE.test(file))
    .sort();
}

function prefixOf(file: string): Buffer {
  return readFileSync(file).subarray(0, 64 * 1024);
}

function writeJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

async function collectFixture(kind: 'ok' | 'not-ok', file: string, chunkBytes?: number) {
  const fullPath = path.join(OWN_FIXTURES, kind, file);
  const { format, charset, csvProfiles } = fixtureFormat(fullPath);
  return collectStatement(format, fileInput(fullPath, chunkBytes), { linesMax: LINES_MAX, csvProfiles, charset });
}

describe('corpus: our ok fixtures', () => {
  it('has a fixture for every format and built-in profile', () => {
    const files = statementFiles(path.join(OWN_FIXTURES, 'ok'));
    for (const ending of ['.xml', '.sta', '.bai2', '.gateway.csv', '.bank.csv', '.custom.csv'])
      expect(
        files.some((file) => file.endsWith(ending)),
        ending,
      ).toBe(true);
  });

  it('has an ok and a not-ok fixture for every interim format, named by it', () => {
    for (const kind of ['ok', 'not-ok'] as const) {
      const files = statementFiles(path.join(OWN_FIXTURES, kind));
      for (const format of ['camt052', 'camt054', 'mt942'])
        expect(
          files.some((file) => file.startsWith(`${format}-`)),
          `${kind} ${format}`,
        ).toBe(true);
    }
  });

  for (const file of statementFiles(path.join(OWN_FIXTURES, 'ok'))) {
    it(`${file} gives exactly its .expected.json, whatever the chunk size, and is detected as named`, async () => {
      const expectedFile = path.join(OWN_FIXTURES, 'ok', `${file}.expected.json`);
      if (UPDATE) writeJson(expectedFile, comparable(await collectFixture('ok', file)));
      const expected: unknown = JSON.parse(readFileSync(expectedFile, 'utf8'));
      for (const chunkBytes of [1, 13, 64 * 1024]) {
        const collected = await collectFixture('ok', file, chunkBytes);
        expect(collected.errors).toEqual([]);
        expect(comparable(collected)).toEqual(expected);
      }
      const named = fixtureFormat(path.join(OWN_FIXTURES, 'ok', file)).format;
      const detected = detectFormat(prefixOf(path.join(OWN_FIXTURES, 'ok', file)));
      expect(detected).toBe(file in DETECTED_OTHERWISE ? DETECTED_OTHERWISE[file] : named);
    });

    it(`${file}: every statement with both balances adds up, amounts are bigint`, async () => {
      const { statements, lines } = await collectFixture('ok', file);
      for (const line of lines) expect(typeof line.amountMinor).toBe('bigint');
      for (const statement of statements.filter((each) => each.openingBalance && each.closingBalance)) {
        const own = lines.filter((line) => line.statementIndex === statement.statementIndex);
        expect(balanceCheck(statement, own).ok).toBe(true);
      }
    });
  }
});

describe('corpus: our not-ok fixtures', () => {
  const readme = readFileSync(path.join(OWN_FIXTURES, 'README.md'), 'utf8');

  for (const file of statementFiles(path.join(OWN_FIXTURES, 'not-ok'))) {
    it(`${file} gives exactly the errors of its .errors.json, listed in the README`, async () => {
      const expectedFile = path.join(OWN_FIXTURES, 'not-ok', `${file}.errors.json`);
      const collected = await collectFixture('not-ok', file);
      const errors = collected.errors.map(({ lineNumber, reason }) => ({ lineNumber, reason }));
      // One error a line, as these files have always been written.
      if (UPDATE)
        writeFileSync(expectedFile, `[\n${errors.map((each) => `  ${JSON.stringify(each)}`).join(',\n')}\n]\n`);
      const expected = JSON.parse(readFileSync(expectedFile, 'utf8')) as Array<{ lineNumber: number }>;
      expect(errors).toEqual(expected);
      expect(expected.length).toBeGreaterThan(0);
      const section = readme.slice(readme.indexOf(`### ${file}`));
      expect(section.length, `README section for ${file}`).toBeLessThan(readme.length);
      for (const { lineNumber } of expected) expect(section).toContain(`| ${lineNumber} |`);
      const named = fixtureFormat(path.join(OWN_FIXTURES, 'not-ok', file)).format;
      const detected = detectFormat(prefixOf(path.join(OWN_FIXTURES, 'not-ok', file)));
      expect(detected).toBe(file in DETECTED_OTHERWISE ? DETECTED_OTHERWISE[file] : named);
    });
  }
});

interface SampleOutcome {
  outcome: 'imported' | 'refused' | 'format refused';
  format: string | null;
  refusal?: { code: string; message: string };
  charset?: string;
  statements?: Array<Record<string, unknown>>;
  lines?: Array<Record<string, unknown>>;
  errors?: Array<{ line: number; reason: string }>;
}

const shownBalance = (balance: { amountMinor: bigint; currency: string; date: string } | null) =>
  balance === null
    ? null
    : { amountMinor: balance.amountMinor.toString(), currency: balance.currency, date: balance.date };

/** What an import without a format makes of the sample: the refusal of its format, or what it parses to. */
async function sampleOutcome(file: string): Promise<SampleOutcome> {
  const fullPath = path.join(STATEMENT_SAMPLES_DIR, file);
  let format: string;
  try {
    format = (await detectedImportFormat(fileInput(fullPath, 64 * 1024))).format;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    // Every format detected is parsed: a refusal here is a file recognised as none of them.
    return { outcome: 'format refused', format: null, refusal: { code: error.code, message: error.message } };
  }
  const collected = await collectStatement(format as StatementFormat, fileInput(fullPath), {
    linesMax: LINES_MAX,
    charset: defaultCharset(format),
  });
  const statements = collected.statements.map((statement) => {
    const own = collected.lines.filter((line) => line.statementIndex === statement.statementIndex);
    const net: Record<string, string> = {};
    for (const line of own) net[line.currency] = (BigInt(net[line.currency] ?? '0') + line.amountMinor).toString();
    const problem = balanceProblem(statement, own);
    return {
      accountId: statement.accountId,
      statementId: statement.statementId,
      lines: statement.lineCount,
      netMinor: net,
      opening: shownBalance(statement.openingBalance),
      closing: shownBalance(statement.closingBalance),
      warnings: [...(statement.warnings ?? []), ...(problem === undefined ? [] : [problem])],
    };
  });
  const lines = collected.lines.map((line) => ({
    line: line.lineNumber,
    amountMinor: line.amountMinor.toString(),
    currency: line.currency,
    references: line.references,
  }));
  const errors = collected.errors.map((error) => ({ line: error.lineNumber, reason: error.reason }));
  const imports = errors.length === 0 && statements.length > 0;
  return { outcome: imports ? 'imported' : 'refused', format, charset: collected.charset, statements, lines, errors };
}

itWithStatementSamples('corpus: every third-party sample gives its checked-in outcome', async () => {
  const refused: string[] = [];
  for (const file of statementFiles(STATEMENT_SAMPLES_DIR)) {
    const actual = await sampleOutcome(file);
    const expectedFile = path.join(CORPUS_EXPECTED, `${file}.expected.json`);
    if (UPDATE) writeJson(expectedFile, actual);
    expect(actual, file).toEqual(JSON.parse(readFileSync(expectedFile, 'utf8')));
    if (actual.outcome === 'format refused') expect(actual.refusal?.code, file).toBe('FORMAT_NOT_RECOGNISED');
    if (actual.outcome !== 'imported') refused.push(file);
  }
  expect(refused).toEqual(Object.keys(REFUSED_RIGHTLY).sort());
});
