// `npm run bench`: every workload of the ledger beside its plain SQL baseline, as medians of several
// runs: posting (single transfers uncontended and hot, batches of 100 and 1000), statement import
// (CSV, camt.053) and reconciliation. One report: bench-results/report.{md,json}, chart.svg (.png).
// BENCH_SUITES picks suites; see test/bench/README.md for every setting.
import { loadavg } from 'node:os';
import { type BenchConfig, describeConfig, loadBenchConfig } from './bench-config';
import { consoleLog } from './bench-log';
import { type Comparison, postingComparisons } from './comparison';
import { describeCheck } from './checks';
import { machineCpuTicks, stealShare } from './cpu-usage';
import { runImportSuite } from './import-suite';
import { describeMachine } from './machine';
import { runPostingSuite } from './posting-suite';
import { runReconcileSuite } from './reconcile-suite';
import { type BenchReport, renderMarkdown, writeReport } from './report';

const log = consoleLog('bench');

async function runSuites(config: BenchConfig, report: BenchReport): Promise<void> {
  const comparisons: Comparison[] = [];
  if (config.suites.includes('posting')) {
    report.posting = await runPostingSuite(config, log);
    comparisons.push(...postingComparisons(report.posting.cells));
  }
  if (config.suites.includes('import')) {
    report.imports = await runImportSuite(config, log);
    comparisons.push(...report.imports.comparisons);
  }
  if (config.suites.includes('reconcile')) {
    report.reconcile = await runReconcileSuite(config, log);
    comparisons.push(...report.reconcile.comparisons);
  }
  report.comparisons = comparisons;
}

async function main(): Promise<void> {
  const startedAtMs = Date.now();
  // Before the bench adds its own load: anything else running on the machine skews every figure.
  const loadAverageAtStart = loadavg()[0]!;
  const cpuAtStart = machineCpuTicks();
  const config = loadBenchConfig();
  log(
    `settings: ${JSON.stringify(describeConfig(config))}; 1-minute load average before start ` +
      `${loadAverageAtStart.toFixed(2)}`,
  );
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  const overall = setTimeout(() => {
    console.error(`[bench] aborted: still running after ${config.benchTimeoutMs / 1000} s (BENCH_TIMEOUT_S)`);
    process.exit(1);
  }, config.benchTimeoutMs);
  const report: BenchReport = {
    startedAt: new Date(startedAtMs).toISOString(),
    durationS: 0,
    settings: describeConfig(config),
    machine: await describeMachine(config.adminDatabaseUrl, config.apiNode, loadAverageAtStart),
    comparisons: [],
  };
  try {
    await runSuites(config, report);
  } finally {
    clearTimeout(overall);
  }
  report.durationS = (Date.now() - startedAtMs) / 1000;
  report.machine.stealShare = stealShare(cpuAtStart, machineCpuTicks());
  const markdown = renderMarkdown(report, config);
  const paths = await writeReport(config.resultsDirectory, report, markdown);
  console.log(`\n${markdown}`);
  log(`wrote ${[paths.markdownPath, paths.jsonPath, paths.svgPath, paths.pngPath].filter(Boolean).join(', ')}`);
  const failed = (report.posting?.checks ?? []).filter((check) => !check.ok);
  if (failed.length > 0) {
    console.error(`[bench] ${failed.length} books check(s) FAILED:\n${failed.map(describeCheck).join('\n')}`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error('[bench] failed:', error);
  process.exit(1);
});
