import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { collectStatement } from '@ledger/imports';
import { fileInput } from '../../test/statement-files';
import { itWithStatementSamples, STATEMENT_SAMPLES_DIR } from '../../test/statement-samples';

// Every MT940 file of the shared samples, read whole, against the outcome checked in beside this test:
// for a file that imports whole its statements, line count and net per statement; for one that is refused,
// every error (line and reason). RECORD_MT940_SAMPLES=1 rewrites the JSON from what the parser gives.
const MT940_SAMPLES = path.join(STATEMENT_SAMPLES_DIR, 'mt940');
const EXPECTED_FILE = path.join(__dirname, 'mt940-samples.expected.json');

const FRAGMENT = 'a fragment (one tag or a few) without :20:, written to test one field: not a statement';
/** Why each refused sample is refused rightly; every other sample must import whole. */
const REFUSED_RIGHTLY: Readonly<Record<string, string>> = {
  'betterplace/amount_formats.sta': FRAGMENT,
  'betterplace/currency_in_25.sta': FRAGMENT,
  'betterplace/empty_86.sta': FRAGMENT,
  'betterplace/empty_entry_date.sta': FRAGMENT,
  'betterplace/missing_crlf_at_end.sta': FRAGMENT,
  'cmxl/account_balance_debit.sta': FRAGMENT,
  'cmxl/available_balance.sta': FRAGMENT,
  'cmxl/statement_details.sta': FRAGMENT,
  'cmxl/statement_line.sta': FRAGMENT,
  'wolph/self-provided-sparkassen.sta': `${FRAGMENT} (and a :61: and a tag broken across lines)`,
  'wolph/invalid_statement.sta': 'not MT940 at all: numbered lines of text',
  'wolph/mBank-mt942.sta': 'an MT942 interim report (:34F:, :13D:, :90D:, no :60F:), not an MT940 statement',
  'wolph/multiline.sta': 'a :61: appended after the statement ended (after -), belonging to no statement',
};

interface Outcome {
  imports: boolean;
  charset: string;
  statements: Array<{ lines: number; netMinor: string; closing: string | null }>;
  errors: Array<{ line: number; reason: string }>;
}

function sampleFiles(): string[] {
  return readdirSync(MT940_SAMPLES, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.sta'))
    .sort();
}

async function outcome(file: string): Promise<Outcome> {
  const collected = await collectStatement('mt940', fileInput(path.join(MT940_SAMPLES, file)), {
    linesMax: 10_000,
    charset: 'windows-1252',
  });
  return {
    imports: collected.errors.length === 0 && collected.statements.length > 0,
    charset: collected.charset,
    statements: collected.statements.map((statement) => ({
      lines: statement.lineCount,
      netMinor: collected.lines
        .filter((line) => line.statementIndex === statement.statementIndex)
        .reduce((sum, line) => sum + line.amountMinor, 0n)
        .toString(),
      closing: statement.closingBalance?.amountMinor.toString() ?? null,
    })),
    errors: collected.errors.map((error) => ({ line: error.lineNumber, reason: error.reason })),
  };
}

itWithStatementSamples('every MT940 sample gives its checked-in outcome', async () => {
  const actual: Record<string, Outcome> = {};
  for (const file of sampleFiles()) actual[file] = await outcome(file);
  if (process.env.RECORD_MT940_SAMPLES === '1') writeFileSync(EXPECTED_FILE, `${JSON.stringify(actual, null, 2)}\n`);
  const expected: unknown = JSON.parse(readFileSync(EXPECTED_FILE, 'utf8'));
  expect(actual).toEqual(expected);
  const refused = Object.keys(actual).filter((file) => !actual[file].imports);
  expect(refused).toEqual(Object.keys(REFUSED_RIGHTLY).sort());
});
