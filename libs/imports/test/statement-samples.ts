import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, it, type TestFunction } from 'vitest';

// Third-party statement samples (real bank and gateway files with their own README) are not part of the
// repository: they sit in STATEMENT_SAMPLES_DIR, by default ../shared/statements beside the repository
// root. A relative value is read from the repository root. Where the folder is absent the tests that read
// it are skipped, each with a line naming the folder; .ci/run sets the variable and refuses to run without
// the folder, so CI never skips them.

// Vitest provides __dirname here; this file lives in libs/imports/test, three levels below the root.
const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

export const STATEMENT_SAMPLES_DIR = path.resolve(
  REPO_ROOT,
  process.env.STATEMENT_SAMPLES_DIR || path.join('..', 'shared', 'statements'),
);

const SAMPLES_FOUND = existsSync(STATEMENT_SAMPLES_DIR);

/** True when the samples are absent, after printing which test is skipped for it (for skipIf). */
export function missingStatementSamples(test: string): boolean {
  if (SAMPLES_FOUND) return false;
  console.log(`statement samples not found at ${STATEMENT_SAMPLES_DIR}: skipping ${test}`);
  return true;
}

/** A describe block that reads the samples: skipped, by name, where they are absent. */
export function describeWithStatementSamples(name: string, body: () => void): void {
  describe.skipIf(missingStatementSamples(name))(name, body);
}

/** A test that reads the samples: skipped, by name, where they are absent. */
export function itWithStatementSamples(name: string, test: TestFunction, timeout?: number): void {
  it.skipIf(missingStatementSamples(name))(name, test, timeout);
}
