import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { FAULT_SEED } from './seeded-random';

const RESULTS_DIR = resolve(__dirname, '..', '..', '..', 'test-results');
const PARTS_DIR = join(RESULTS_DIR, 'faults');
export const SUMMARY_FILE = join(RESULTS_DIR, 'faults.json');
/** When this test file's module was loaded (each file runs in a fresh module context): its tests' time so far. */
const FILE_STARTED_AT = Date.now();

/** One test's figures, written as it finishes; the suite's teardown gathers them into faults.json. */
export async function recordFigures(test: string, figures: Record<string, unknown>): Promise<void> {
  await mkdir(PARTS_DIR, { recursive: true });
  const record = {
    test,
    seed: FAULT_SEED,
    secondsIntoFile: Math.round((Date.now() - FILE_STARTED_AT) / 1000),
    ...figures,
  };
  await writeFile(join(PARTS_DIR, `${test}.json`), `${JSON.stringify(record, null, 2)}\n`);
  console.log(`[faults] ${test}: ${JSON.stringify(record)}`);
}

export async function clearFigures(): Promise<void> {
  await rm(PARTS_DIR, { recursive: true, force: true });
}

/** faults.json: every test's figures and the seed; printed as a short summary. */
export async function writeSummary(startedAt: number): Promise<void> {
  const names = (await readdir(PARTS_DIR).catch(() => [] as string[])).filter((name) => name.endsWith('.json')).sort();
  const tests = await Promise.all(names.map(async (name) => JSON.parse(await readFile(join(PARTS_DIR, name), 'utf8'))));
  // Under `npm test` the run includes the other tiers; each test's secondsIntoFile is its file's own time.
  const summary = {
    seed: FAULT_SEED,
    replay: `FAULT_SEED=${FAULT_SEED} npm run test:faults`,
    vitestRunSeconds: Math.round((Date.now() - startedAt) / 1000),
    tests,
  };
  await mkdir(RESULTS_DIR, { recursive: true });
  await writeFile(SUMMARY_FILE, `${JSON.stringify(summary, null, 2)}\n`);
  console.log(
    `\nfault suite (seed ${FAULT_SEED}; replay: ${summary.replay}); the vitest run took ${summary.vitestRunSeconds} s:`,
  );
  for (const test of tests)
    console.log(`  ${test.test} (${test.secondsIntoFile} s into its file): ${test.headline ?? ''}`);
  console.log(`  figures: ${SUMMARY_FILE}\n`);
}
