import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BooksCheck } from './checks';
import type { CellSummary } from './stats';
import type { Mode, WorkloadName } from './workloads';

export interface Cell {
  workload: WorkloadName;
  concurrency: number;
  mode: Mode;
  summary: CellSummary;
}

export interface BenchReport {
  startedAt: string;
  durationS: number;
  settings: Record<string, string | number>;
  machine: { cpus: number; node: string; postgres: string; postgresSettings: Record<string, string> };
  cells: Cell[];
  checks: BooksCheck[];
}

const MODE_LABELS: Record<Mode, string> = { api: 'API (HTTP)', sql: 'plain SQL', replica: 'API statements over pg' };

function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

function ratio(numerator: number | undefined, denominator: number | undefined): string {
  if (numerator === undefined || denominator === undefined || !(denominator > 0)) return 'n/a';
  return `${(numerator / denominator).toFixed(2)}x`;
}

function errorsText(summary: CellSummary): string {
  if (summary.errorCount === 0) return '0';
  const labels = Object.entries(summary.errors).map(([label, count]) => `${count} ${label}`);
  return `${summary.errorCount} (${labels.join('; ')})`;
}

function resultsTable(cells: readonly Cell[]): string[] {
  const lines = [
    '| workload | clients | mode | transfers/s | runs: min-max transfers/s | p50 ms | p99 ms | errors | CPU ms/transfer: API node / postgres / bench | connections: waiting for app / lock wait / executing |',
    '|---|---:|---|---:|---:|---:|---:|---|---|---|',
  ];
  for (const { workload, concurrency, mode, summary } of cells) {
    const cpu = summary.cpuMsPerTransfer;
    const states = summary.connectionStates;
    const timedOut = summary.timedOut ? ' (timed out)' : '';
    const rates = summary.runs.map((run) => run.transfersPerSecond);
    lines.push(
      `| ${workload} | ${concurrency} | ${MODE_LABELS[mode]} | ${fixed(summary.transfersPerSecond, 0)}${timedOut} | ` +
        `${fixed(Math.min(...rates), 0)}-${fixed(Math.max(...rates), 0)} | ` +
        `${fixed(summary.p50LatencyMs, 2)} | ${fixed(summary.p99LatencyMs, 2)} | ${errorsText(summary)} | ` +
        `${mode === 'api' ? fixed(cpu.apiNode, 3) : '-'} / ${fixed(cpu.postgres, 3)} / ${fixed(cpu.benchClient, 3)} | ` +
        `${fixed(states.waitingForClient, 1)} / ${fixed(states.lockWait, 1)} / ${fixed(states.executing, 1)} |`,
    );
  }
  return lines;
}

/** Replica mode only: where the database time of the API's posting path goes, statement by statement. */
function statementsTable(cells: readonly Cell[]): string[] {
  const replicas = cells.filter((cell) => cell.summary.statementMeansMs !== undefined);
  if (replicas.length === 0) return [];
  const names = Object.keys(replicas[0]!.summary.statementMeansMs!);
  const lines = [
    'Mean round trip per statement of the API\'s posting path (replica mode, ms):',
    '',
    `| statement | ${replicas.map((cell) => `${cell.workload} c=${cell.concurrency}`).join(' | ')} |`,
    `|---|${replicas.map(() => '---:').join('|')}|`,
  ];
  for (const name of names) lines.push(`| ${name} | ${replicas.map((cell) => fixed(cell.summary.statementMeansMs![name]!, 2)).join(' | ')} |`);
  return [...lines, ''];
}

function ratiosTable(cells: readonly Cell[], concurrencies: readonly number[]): string[] {
  const find = (workload: WorkloadName, concurrency: number, mode: Mode) =>
    cells.find((cell) => cell.workload === workload && cell.concurrency === concurrency && cell.mode === mode)?.summary;
  const lines = [
    '| clients | API/SQL transfers/s, uncontended | API/SQL transfers/s, hot | API hot/uncontended transfers/s | SQL hot/uncontended transfers/s | API/SQL p50, uncontended | API/SQL p50, hot |',
    '|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const concurrency of concurrencies) {
    const apiUncontended = find('uncontended', concurrency, 'api');
    const sqlUncontended = find('uncontended', concurrency, 'sql');
    const apiHot = find('hot', concurrency, 'api');
    const sqlHot = find('hot', concurrency, 'sql');
    lines.push(
      `| ${concurrency} | ${ratio(apiUncontended?.transfersPerSecond, sqlUncontended?.transfersPerSecond)} | ` +
        `${ratio(apiHot?.transfersPerSecond, sqlHot?.transfersPerSecond)} | ` +
        `${ratio(apiHot?.transfersPerSecond, apiUncontended?.transfersPerSecond)} | ` +
        `${ratio(sqlHot?.transfersPerSecond, sqlUncontended?.transfersPerSecond)} | ` +
        `${ratio(apiUncontended?.p50LatencyMs, sqlUncontended?.p50LatencyMs)} | ${ratio(apiHot?.p50LatencyMs, sqlHot?.p50LatencyMs)} |`,
    );
  }
  return lines;
}

export function renderMarkdown(report: BenchReport, concurrencies: readonly number[]): string {
  const settings = Object.entries(report.settings).map(([name, value]) => `${name}=${value}`).join(', ');
  return [
    `# Posting bench: ${report.startedAt}`,
    '',
    `Machine: ${report.machine.cpus} CPUs, Node ${report.machine.node}, ${report.machine.postgres} ` +
      `(${Object.entries(report.machine.postgresSettings).map(([name, value]) => `${name}=${value}`).join(', ')}). ` +
      `Bench took ${report.durationS.toFixed(0)} s.`,
    `Settings: ${settings}.`,
    'Each row is the median of the runs (p99 = median of the runs\' p99). "clients" = concurrent closed-loop clients',
    '(HTTP keep-alive sockets for the API, pg connections for plain SQL). Connection columns: mean number of that',
    "mode's PostgreSQL connections in each state, sampled from pg_stat_activity every 50 ms.",
    '',
    ...resultsTable(report.cells),
    '',
    ...ratiosTable(report.cells, concurrencies),
    '',
    ...statementsTable(report.cells),
    'Books checks (after setup and after each workload):',
    '',
    ...report.checks.map((check) => `- ${check.ok ? 'OK' : 'FAIL'} ${check.label}: net ${JSON.stringify(check.netByCurrency)}, ` +
      `negative accounts ${check.negativeAccounts}, accounts disagreeing with entries ${check.accountsDisagreeingWithEntries}`),
    '',
  ].join('\n');
}

export async function writeReport(directory: string, report: BenchReport, markdown: string): Promise<{ jsonPath: string; markdownPath: string }> {
  await mkdir(directory, { recursive: true });
  const jsonPath = join(directory, 'posting.json');
  const markdownPath = join(directory, 'posting.md');
  await writeFile(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(markdownPath, markdown);
  return { jsonPath, markdownPath };
}
