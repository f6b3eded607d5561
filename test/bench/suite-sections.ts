import type { ImportResults, ImportRun } from './import-suite';
import type { ReconcileResults } from './reconcile-suite';
import { median } from './stats';

// The import and reconcile suites' sections of the report: every run, so a median can be checked.

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const MODE_LABELS: Record<ImportRun['mode'], string> = { ledger: 'ImportStatementUseCase', sql: 'plain SQL' };
const heapKbPerLine = (run: ImportRun) => run.allocatedBytes / 1000 / run.lines;
const gcMicrosPerLine = (run: ImportRun) => (run.gcMs * 1000) / run.lines;

export function renderImportSection(results: ImportResults): string[] {
  const sizes = Object.entries(results.fileBytes)
    .map(
      ([format, bytes]) =>
        `${format}: ${results.lines[format as ImportRun['format']]} lines, ${fixed(bytes / 1024 / 1024)} MiB`,
    )
    .join('; ');
  return [
    '## Statement import',
    '',
    `Files: ${sizes}. The ledger streams the file through ImportStatementUseCase (parse, exact`,
    'amounts, line identity, dedupe, store in one transaction); the baseline inserts the same rows, already known, ' +
      'by plain SQL.',
    'CPU per line: the bench process (where the ledger parses) and the PostgreSQL backends of the bench database, ' +
      'from /proc.',
    'RSS growth: peak resident memory of the bench process during the run over its RSS just before it.',
    'Heap KB/line: JavaScript heap the bench process allocated per line (the same code allocates the same, whatever',
    "the machine's neighbours do, unlike CPU time); GC µs/line: its garbage collector's time, by V8's account.",
    '',
    '| format | mode | run | seconds | lines/s | CPU µs/line: bench process / PostgreSQL | heap KB/line ' +
      '| GC µs/line | RSS growth | peak RSS |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.runs.map(
      (run) =>
        `| ${run.format} | ${MODE_LABELS[run.mode]} | ${run.run} | ${fixed(run.seconds, 2)} | ` +
        `${fixed(run.linesPerSecond, 0)} | ` +
        `${fixed((run.cpuSeconds * 1e6) / run.lines)} / ${fixed((run.postgresCpuSeconds * 1e6) / run.lines)} | ` +
        `${fixed(heapKbPerLine(run), 2)} | ${fixed(gcMicrosPerLine(run))} | ` +
        `${run.rssGrowthMiB} MiB | ${run.peakRssMiB} MiB |`,
    ),
    ...importMedians(results),
    '',
  ];
}

/** One median row per format and mode, under the runs. */
function importMedians(results: ImportResults): string[] {
  const rows: string[] = [];
  for (const format of Object.keys(results.fileBytes) as ImportRun['format'][]) {
    for (const mode of ['ledger', 'sql'] as const) {
      const runs = results.runs.filter((run) => run.format === format && run.mode === mode);
      if (runs.length === 0) continue;
      const medianOf = (pick: (run: ImportRun) => number) => median(runs.map(pick));
      rows.push(
        `| ${format} | ${MODE_LABELS[mode]} | median | ${fixed(
          medianOf((run) => run.seconds),
          2,
        )} | ` +
          `${fixed(
            medianOf((run) => run.linesPerSecond),
            0,
          )} | ` +
          `${fixed(medianOf((run) => (run.cpuSeconds * 1e6) / run.lines))} / ` +
          `${fixed(medianOf((run) => (run.postgresCpuSeconds * 1e6) / run.lines))} | ` +
          `${fixed(medianOf(heapKbPerLine), 2)} | ${fixed(medianOf(gcMicrosPerLine))} | ` +
          `${medianOf((run) => run.rssGrowthMiB)} MiB | ${medianOf((run) => run.peakRssMiB)} MiB |`,
      );
    }
  }
  return rows;
}

export function renderReconcileSection(results: ReconcileResults): string[] {
  const medianOf = (pick: (run: ReconcileResults['runs'][number]) => number) =>
    fixed(median(results.runs.map(pick)), 2);
  return [
    '## Reconciliation',
    '',
    `${results.lines} gateway lines against ${results.lines} charges, a fresh tenant per run. Seed and import are ` +
      'set-up,',
    'shown for reference; the comparison is the SQL join (matches inserted, rolled back) against the whole ' +
      'reconciliation run',
    '(statistics, every invariant check including the journal re-hash, all matching rules, tickets, the run record).',
    '',
    '| run | seed s | import s | plain SQL join s | reconciliation run s | run CPU s (bench process) | run peak RSS ' +
      '| run steps (ms) |',
    '|---:|---:|---:|---:|---:|---:|---:|---|',
    ...results.runs.map(
      (run) =>
        `| ${run.run} | ${fixed(run.seedSeconds)} | ${fixed(run.importSeconds)} | ${fixed(run.baselineSeconds, 2)} | ` +
        `${fixed(run.runSeconds, 2)} | ` +
        `${fixed(run.runCpuSeconds)} | ${run.runPeakRssMiB} MiB | ${JSON.stringify(run.stats.durationsMs ?? {})} |`,
    ),
    `| median | ${medianOf((run) => run.seedSeconds)} | ${medianOf((run) => run.importSeconds)} | ` +
      `${medianOf((run) => run.baselineSeconds)} | ${medianOf((run) => run.runSeconds)} | | | |`,
    '',
  ];
}
