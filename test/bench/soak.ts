// `npm run soak`: sustained mixed traffic against the built API and worker for SOAK_SECONDS (default
// 600), then the invariants; writes bench-results/soak.{md,json}; exit status 1 on any failure.
// `npm test` runs the same soak briefly (test/soak.e2e-spec.ts). See test/bench/README.md.
import { consoleLog } from './bench-log';
import { loadSoakConfig } from './soak-config';
import { writeSoakReport } from './soak-report';
import { runSoak } from './soak-runner';

const DEFAULT_SECONDS = 600;

async function main(): Promise<void> {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  const config = loadSoakConfig(DEFAULT_SECONDS);
  const report = await runSoak(config, consoleLog('soak'));
  const { markdown, paths } = await writeSoakReport(config.resultsDirectory, report);
  console.log(`\n${markdown}`);
  console.log(`wrote ${paths.join(', ')}`);
  if (!report.ok) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error('[soak] failed:', error);
  process.exit(1);
});
