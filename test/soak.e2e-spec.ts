import { describe, expect, it } from 'vitest';
import { consoleLog } from './bench/bench-log';
import { loadSoakConfig } from './bench/soak-config';
import { writeSoakReport } from './bench/soak-report';
import { runSoak } from './bench/soak-runner';

// The soak of `npm run soak`, briefly: the built API and worker (`npm test` builds first) under every
// kind of request at once; then the books, the journal and every acknowledged posting are checked.
// SOAK_SECONDS lengthens it. The report lands in bench-results/soak.{md,json}.

const SOAK_SECONDS_IN_TESTS = 45;
/** Set-up, the last requests in flight, the checks and the journal verification, beyond the soak itself. */
const SOAK_OVERHEAD_MS = 180_000;
const config = loadSoakConfig(SOAK_SECONDS_IN_TESTS);

describe('soak: mixed traffic against the built API and worker', () => {
  it(
    'keeps the books balanced and the journal whole, acknowledges every posting exactly once, answers no 5xx',
    async () => {
      const report = await runSoak(config, consoleLog('soak'));
      const { markdown } = await writeSoakReport(config.resultsDirectory, report);
      console.log(markdown);
      // The mix really ran: every kind of operation was answered at least once.
      const answered = new Set(
        report.operations.filter((operation) => operation.count > 0).map((operation) => operation.operation),
      );
      for (const operation of [
        'post',
        'batch',
        'hold',
        'reverse',
        'read balance asOf',
        'read entries',
        'list transactions',
        'import (CSV upload)',
        'reconciliation run',
      ]) {
        expect(answered, `no "${operation}" was answered`).toContain(operation);
      }
      for (const check of report.checks) expect(check.ok, `${check.name}: ${check.detail}`).toBe(true);
    },
    config.seconds * 1000 + SOAK_OVERHEAD_MS,
  );
});
