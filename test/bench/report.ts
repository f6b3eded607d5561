import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BenchConfig } from './bench-config';
import { renderChartSvg } from './chart';
import { renderChartPng } from './chart-png';
import type { Comparison } from './comparison';
import type { ImportResults } from './import-suite';
import { type Machine, nodeVersions } from './machine';
import { renderPostingSection } from './posting-report';
import type { PostingResults } from './posting-suite';
import type { ReconcileResults } from './reconcile-suite';
import { renderImportSection, renderReconcileSection } from './suite-sections';

// `npm run bench`'s one report: bench-results/report.md, report.json and chart.svg (and chart.png
// when Debian's Chromium is there). The summary and the chart put every workload beside its baseline.

export interface BenchReport {
  startedAt: string;
  durationS: number;
  settings: Record<string, string | number>;
  machine: Machine;
  comparisons: Comparison[];
  posting?: PostingResults;
  imports?: ImportResults;
  reconcile?: ReconcileResults;
}

const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

function summaryTable(comparisons: readonly Comparison[]): string[] {
  return [
    '| suite | workload | ledger path | ledger (median) | plain SQL (median) | unit | ledger / SQL | runs: ledger ' +
      'min-max | runs: SQL min-max | ledger CPU µs per unit (median; runs min-max) |',
    '|---|---|---|---:|---:|---|---:|---:|---:|---:|',
    ...comparisons.map((row) => {
      const ratio = row.baselineMedian > 0 ? `${(row.ledgerMedian / row.baselineMedian).toFixed(2)}x` : 'n/a';
      const range = (runs: readonly number[], digits = 0) =>
        `${fixed(Math.min(...runs), digits)}-${fixed(Math.max(...runs), digits)}`;
      const cpu = row.ledgerCpuMicrosPerUnitRuns;
      const cpuCell =
        cpu === undefined || cpu.length === 0
          ? 'see its section'
          : `${fixed(row.ledgerCpuMicrosPerUnitMedian ?? Number.NaN, 1)} (${range(cpu, 1)})`;
      return (
        `| ${row.suite} | ${row.workload} | ${row.ledgerPath} | ${fixed(row.ledgerMedian)} | ` +
        `${fixed(row.baselineMedian)} | ${row.unit} | ${ratio} | ${range(row.ledgerRuns)} | ` +
        `${range(row.baselineRuns)} | ${cpuCell} |`
      );
    }),
  ];
}

export function subtitleOf(report: BenchReport): string {
  const { machine } = report;
  return (
    `${report.startedAt}: ${machine.cpus} CPUs, load average ${machine.loadAverageAtStart.toFixed(2)} before ` +
    `start, Node ${nodeVersions(machine)}, ${machine.postgres}; ${report.settings.runsPerCell} runs per cell`
  );
}

export function renderMarkdown(report: BenchReport, config: BenchConfig): string {
  const { machine } = report;
  const settings = Object.entries(report.settings)
    .map(([name, value]) => `${name}=${value}`)
    .join(', ');
  return [
    `# Bench: ${report.startedAt}`,
    '',
    `Machine: ${machine.cpus} CPUs (${machine.cpuModel}; JavaScript reference ` +
      `${machine.javascriptReferenceMs.toFixed(0)} ms, lower is faster), Node ${nodeVersions(machine)}, ` +
      `${machine.postgres} ` +
      `(${Object.entries(machine.postgresSettings)
        .map(([name, value]) => `${name}=${value}`)
        .join(', ')}). ` +
      `Bench took ${report.durationS.toFixed(0)} s, the hypervisor taking ` +
      `${fixed((machine.stealShare ?? Number.NaN) * 100, 1)}% of the machine's CPU time meanwhile (steal); ` +
      '1-minute load average before it started: ' +
      `${machine.loadAverageAtStart.toFixed(2)}` +
      ' (well above 0: something else was running, and every figure is skewed by it).',
    `Settings: ${settings}.`,
    '',
    '## Ledger beside its plain SQL baseline',
    '',
    'Medians of the runs; each baseline and what it leaves out is described in test/bench/README.md. The chart: ' +
      'chart.svg (chart.png).',
    '',
    '![chart](chart.svg)',
    '',
    ...summaryTable(report.comparisons),
    '',
    ...(report.posting
      ? renderPostingSection(
          report.posting.cells,
          report.posting.checks,
          config,
          report.posting.processCells,
          report.posting.freshWindows,
          report.posting.pauseRounds,
        )
      : []),
    ...(report.imports ? renderImportSection(report.imports) : []),
    ...(report.reconcile ? renderReconcileSection(report.reconcile) : []),
  ].join('\n');
}

export interface WrittenReport {
  markdownPath: string;
  jsonPath: string;
  svgPath: string;
  pngPath: string | undefined;
}

export async function writeReport(directory: string, report: BenchReport, markdown: string): Promise<WrittenReport> {
  await mkdir(directory, { recursive: true });
  const paths = {
    markdownPath: join(directory, 'report.md'),
    jsonPath: join(directory, 'report.json'),
    svgPath: join(directory, 'chart.svg'),
  };
  await writeFile(paths.jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(paths.markdownPath, markdown);
  await writeFile(paths.svgPath, renderChartSvg(report.comparisons, subtitleOf(report)));
  const pngPath = join(directory, 'chart.png');
  const madePng = await renderChartPng(paths.svgPath, pngPath).catch((error: unknown) => {
    console.error(`[bench] no chart.png: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  });
  return { ...paths, pngPath: madePng ? pngPath : undefined };
}
