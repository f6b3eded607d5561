import type { BenchConfig } from './bench-config';
import type { BooksCheck } from './checks';
import type { CellSummary, RunSummary } from './stats';
import type { Mode, WorkloadName } from './workloads';

// The posting suite's section of the bench report: every cell, API/SQL ratios, the books checks.

/** Single uncontended transfers through the API run as `apiProcesses` processes (API_PROCESSES). */
export interface ProcessCell {
  apiProcesses: number;
  concurrency: number;
  summary: CellSummary;
}

/** One window of the fresh database's first minute (batches of 100 through the API, nothing analyzed by the bench). */
export interface FreshWindow {
  /** When the window began, in seconds after the first one began (right after the setup). */
  startedAtS: number;
  summary: RunSummary;
}

/** One burst after the API was left idle (BENCH_PAUSE_SECONDS), and the same burst straight after it. */
export interface PauseRound {
  afterPause: RunSummary;
  next: RunSummary;
}

/** The bursts after a pause: one transfer of this workload from each of the highest concurrency's clients. */
export const PAUSE_WORKLOAD = 'uncontended';

/** The workload and clients of the fresh-database windows, compared with the same cell measured later. */
export const FRESH_WORKLOAD = 'batch100';

export interface Cell {
  workload: WorkloadName;
  concurrency: number;
  mode: Mode;
  /** 1, or the batch size: latencies are per request. */
  transfersPerRequest: number;
  summary: CellSummary;
}

const MODE_LABELS: Record<Mode, string> = {
  api: 'API (HTTP)',
  sql: 'plain SQL (Node pg)',
  wrk: 'API (HTTP, driven by wrk)',
  pgbench: 'plain SQL (pgbench)',
  pgledger: 'pgledger (pgbench)',
};

/** Issue 19's targets against what a user would pick instead (measured by pgbench in the same run). */
const PEER_TARGETS = { singleVsPgbench: 0.5, singleVsPgledger: 0.7, hotVsPgbench: 0.5, p99Times: 3, batch100: 0.4 };

/** The target for batched posting: API transfers/s at least this share of plain SQL's. */
const BATCH_TARGET_RATIO = 0.7;

function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

function ratio(numerator: number | undefined, denominator: number | undefined): string {
  if (numerator === undefined || denominator === undefined || !(denominator > 0)) return 'n/a';
  return `${(numerator / denominator).toFixed(2)}x`;
}

function errorsText(summary: RunSummary): string {
  if (summary.errorCount === 0) return '0';
  const labels = Object.entries(summary.errors).map(([label, count]) => `${count} ${label}`);
  return `${summary.errorCount} (${labels.join('; ')})`;
}

function resultsTable(cells: readonly Cell[]): string[] {
  const lines = [
    '| workload | clients | mode | transfers/s | runs: min-max transfers/s | p50 ms/request | p99 ms/request | ' +
      'errors (transfers) | CPU ms/transfer: API node / postgres / bench | WAL bytes/transfer | connections: waiting ' +
      'for app / lock wait / executing |',
    '|---|---:|---|---:|---:|---:|---:|---|---|---:|---|',
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
        `${mode === 'api' || mode === 'wrk' ? fixed(cpu.apiNode, 3) : '-'} / ${fixed(cpu.postgres, 3)} / ` +
        `${fixed(cpu.benchClient, 3)} | ${fixed(summary.walBytesPerTransfer, 0)} | ` +
        `${fixed(states.waitingForClient, 1)} / ${fixed(states.lockWait, 1)} / ${fixed(states.executing, 1)} |`,
    );
  }
  return lines;
}

function finder(cells: readonly Cell[]) {
  return (workload: WorkloadName, concurrency: number, mode: Mode) =>
    cells.find((cell) => cell.workload === workload && cell.concurrency === concurrency && cell.mode === mode)?.summary;
}

function ratiosTable(cells: readonly Cell[], concurrencies: readonly number[]): string[] {
  if (!cells.some((cell) => cell.transfersPerRequest === 1)) return [];
  const find = finder(cells);
  const lines = [
    '| clients | API/SQL transfers/s, uncontended | API/SQL transfers/s, hot | API hot/uncontended transfers/s | SQL ' +
      'hot/uncontended transfers/s | API/SQL p50, uncontended | API/SQL p50, hot |',
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
        `${ratio(apiUncontended?.p50LatencyMs, sqlUncontended?.p50LatencyMs)} | ` +
        `${ratio(apiHot?.p50LatencyMs, sqlHot?.p50LatencyMs)} |`,
    );
  }
  return [...lines, ''];
}

/** API/SQL per batch size, against the target (Ledger depth: at least 0.7 of plain SQL). */
function batchRatiosTable(cells: readonly Cell[], concurrencies: readonly number[]): string[] {
  const batchSizes = [...new Set(cells.filter((cell) => cell.transfersPerRequest > 1).map((cell) => cell.workload))];
  if (batchSizes.length === 0) return [];
  const find = finder(cells);
  const lines = [
    '| clients | batch | API transfers/s | plain SQL transfers/s | API/SQL transfers/s | target >= ' +
      `${BATCH_TARGET_RATIO} | API/SQL p50 per request |`,
    '|---:|---|---:|---:|---:|---|---:|',
  ];
  for (const concurrency of concurrencies) {
    for (const workload of batchSizes) {
      const api = find(workload, concurrency, 'api');
      const sql = find(workload, concurrency, 'sql');
      const share =
        api !== undefined && sql !== undefined && sql.transfersPerSecond > 0
          ? api.transfersPerSecond / sql.transfersPerSecond
          : Number.NaN;
      const verdict = Number.isNaN(share) ? 'n/a' : share >= BATCH_TARGET_RATIO ? 'met' : 'NOT met';
      lines.push(
        `| ${concurrency} | ${workload} | ${fixed(api?.transfersPerSecond ?? Number.NaN, 0)} | ` +
          `${fixed(sql?.transfersPerSecond ?? Number.NaN, 0)} | ` +
          `${ratio(api?.transfersPerSecond, sql?.transfersPerSecond)} | ${verdict} | ` +
          `${ratio(api?.p50LatencyMs, sql?.p50LatencyMs)} |`,
      );
    }
  }
  return [...lines, ''];
}

function verdict(value: number, target: number, atMost = false): string {
  if (!Number.isFinite(value)) return 'n/a';
  const met = atMost ? value <= target : value >= target;
  return `${value.toFixed(2)}x (${atMost ? '<=' : '>='} ${target}: ${met ? 'met' : 'NOT met'})`;
}

/** Which client drove the API in a row of the peers table. */
const API_DRIVERS: readonly { mode: Mode; label: string }[] = [
  { mode: 'api', label: 'the bench (Node)' },
  { mode: 'wrk', label: 'wrk' },
];

/**
 * The API beside pgbench's plain SQL and pgledger, cell by cell, with the targets: one row per client that
 * drove the API (the bench's own, and wrk where it ran).
 */
function peersTable(cells: readonly Cell[]): string[] {
  const find = finder(cells);
  const keys = [
    ...new Set(cells.filter((cell) => cell.mode === 'pgbench').map((c) => `${c.workload}|${c.concurrency}`)),
  ];
  if (keys.length === 0) return [];
  const lines = [
    '| workload | clients | API driven by | API transfers/s | pgbench plain SQL | pgledger | API/plain SQL | ' +
      'API/pgledger | p99 ms: API / plain SQL | API p99 / plain SQL p99 | API CPU ms/transfer | WAL bytes/transfer: ' +
      'API / plain SQL / pgledger |',
    '|---|---:|---|---:|---:|---:|---|---|---|---|---:|---|',
  ];
  for (const key of keys) {
    const [workload, clients] = key.split('|') as [WorkloadName, string];
    const concurrency = Number(clients);
    const plain = find(workload, concurrency, 'pgbench');
    const pgledger = find(workload, concurrency, 'pgledger');
    for (const driver of API_DRIVERS) {
      const api = find(workload, concurrency, driver.mode);
      if (api === undefined) continue;
      lines.push(peersRow(workload, concurrency, driver.label, api, plain, pgledger));
    }
  }
  return [
    'Against what a user would pick instead, in the same run: plain SQL transfers of the same shape (the shared',
    "baselines file) and pgledger's transfer function, each driven by pgbench on a database of its own (1,000",
    "accounts; the API's tenant has BENCH_WALLETS wallets). Batches: the baselines file's batch function. The API",
    'is driven by the bench itself (Node) and, where it is installed, by wrk (a client in C, the leanest of them).',
    '',
    ...lines,
    '',
  ];
}

function peersRow(
  workload: WorkloadName,
  concurrency: number,
  driver: string,
  api: CellSummary,
  plain: CellSummary | undefined,
  pgledger: CellSummary | undefined,
): string {
  const share = (peer: CellSummary | undefined) =>
    peer !== undefined && peer.transfersPerSecond > 0 ? api.transfersPerSecond / peer.transfersPerSecond : Number.NaN;
  const plainTarget =
    workload === 'hot'
      ? PEER_TARGETS.hotVsPgbench
      : workload === 'batch100'
        ? PEER_TARGETS.batch100
        : workload === 'uncontended'
          ? PEER_TARGETS.singleVsPgbench
          : Number.NaN;
  const p99Share = plain !== undefined ? api.p99LatencyMs / plain.p99LatencyMs : Number.NaN;
  const single = workload === 'uncontended';
  const rate = (summary: CellSummary | undefined) => fixed(summary?.transfersPerSecond ?? Number.NaN, 0);
  const p99 = (summary: CellSummary | undefined) => fixed(summary?.p99LatencyMs ?? Number.NaN, 2);
  const wal = (summary: CellSummary | undefined) => fixed(summary?.walBytesPerTransfer ?? Number.NaN, 0);
  const columns = [
    workload,
    concurrency,
    driver,
    rate(api),
    rate(plain),
    rate(pgledger),
    Number.isNaN(plainTarget) ? fixed(share(plain), 2) : verdict(share(plain), plainTarget),
    single ? verdict(share(pgledger), PEER_TARGETS.singleVsPgledger) : fixed(share(pgledger), 2),
    `${p99(api)} / ${p99(plain)}`,
    single ? verdict(p99Share, PEER_TARGETS.p99Times, true) : fixed(p99Share, 2),
    fixed(api.cpuMsPerTransfer.apiNode, 3),
    `${wal(api)} / ${wal(plain)} / ${wal(pgledger)}`,
  ];
  return `| ${columns.join(' | ')} |`;
}

/** The first row is the suite's own API (BENCH_API_PROCESSES' first value), the others started again. */
function processesTable(
  cells: readonly Cell[],
  processCells: readonly ProcessCell[],
  config: Pick<BenchConfig, 'concurrencies' | 'apiProcesses'>,
): string[] {
  if (processCells.length === 0) return [];
  const concurrency = Math.max(...config.concurrencies);
  const first = finder(cells)('uncontended', concurrency, 'api');
  const rows = [
    ...(first === undefined ? [] : [{ apiProcesses: config.apiProcesses, concurrency, summary: first }]),
    ...processCells,
  ];
  return [
    `Single uncontended transfers at ${concurrency} clients through API_PROCESSES processes on this machine`,
    '(the CPU figure sums the supervisor and its processes):',
    '',
    '| API processes | transfers/s | runs: min-max | p50 ms | p99 ms | API CPU ms/transfer | ' +
      'postgres CPU ms/transfer |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(({ apiProcesses, summary }) => {
      const rates = summary.runs.map((run) => run.transfersPerSecond);
      return (
        `| ${apiProcesses} | ${fixed(summary.transfersPerSecond, 0)} | ${fixed(Math.min(...rates), 0)}-` +
        `${fixed(Math.max(...rates), 0)} | ${fixed(summary.p50LatencyMs, 2)} | ${fixed(summary.p99LatencyMs, 2)} | ` +
        `${fixed(summary.cpuMsPerTransfer.apiNode, 3)} | ${fixed(summary.cpuMsPerTransfer.postgres, 3)} |`
      );
    }),
    '',
  ];
}

/** The target: the first minute on a fresh database as fast as the rest (the cell measured later). */
function freshTable(cells: readonly Cell[], windows: readonly FreshWindow[], concurrency: number): string[] {
  if (windows.length === 0) return [];
  const later = finder(cells)(FRESH_WORKLOAD, concurrency, 'api');
  const slowest = Math.min(...windows.map((window) => window.summary.transfersPerSecond));
  const transfers = windows.reduce((sum, window) => sum + window.summary.succeeded, 0);
  const elapsedMs = windows.reduce((sum, window) => sum + window.summary.elapsedMs, 0);
  const whole = elapsedMs > 0 ? (transfers * 1000) / elapsedMs : Number.NaN;
  return [
    `The fresh database: ${FRESH_WORKLOAD} through the API at ${concurrency} clients, right after the setup, in`,
    'windows one after the other, with the statistics left to the API (the bench analyzes nothing before them):',
    '',
    '| window starts (s) | transfers/s | p50 ms/request | p99 ms/request | errors | ' +
      'CPU ms/transfer: API node / postgres |',
    '|---:|---:|---:|---:|---:|---|',
    ...windows.map(
      ({ startedAtS, summary }) =>
        `| ${fixed(startedAtS, 1)} | ${fixed(summary.transfersPerSecond, 0)} | ${fixed(summary.p50LatencyMs, 2)} | ` +
        `${fixed(summary.p99LatencyMs, 2)} | ${summary.errorCount}${summary.timedOut ? ' (timed out)' : ''} | ` +
        `${fixed(summary.cpuMsPerTransfer.apiNode, 3)} / ${fixed(summary.cpuMsPerTransfer.postgres, 3)} |`,
    ),
    '',
    later === undefined
      ? `(no later ${FRESH_WORKLOAD} cell at ${concurrency} clients to compare with)`
      : `Slowest window ÷ the later ${FRESH_WORKLOAD} cell's median (${fixed(later.transfersPerSecond, 0)} ` +
        `transfers/s): ${ratio(slowest, later.transfersPerSecond)}; all the windows together (${fixed(whole, 0)} ` +
        `transfers/s) ÷ that median: ${ratio(whole, later.transfersPerSecond)} (target: as fast as the rest).`,
    '',
  ];
}

function afterPauseTable(rounds: readonly PauseRound[], pauseSeconds: number, clients: number): string[] {
  if (rounds.length === 0) return [];
  return [
    `After a pause: the API idle for ${pauseSeconds} s, then one ${PAUSE_WORKLOAD} transfer from each of ` +
      `${clients} clients at once (new keep-alive sockets), then the same burst again at once:`,
    '',
    '| round | after the pause: p50 / slowest ms | next burst: p50 / slowest ms | errors (after, next) |',
    '|---:|---|---|---|',
    ...rounds.map(
      ({ afterPause, next }, index) =>
        `| ${index + 1} | ${fixed(afterPause.p50LatencyMs, 1)} / ${fixed(afterPause.p99LatencyMs, 1)} | ` +
        `${fixed(next.p50LatencyMs, 1)} / ${fixed(next.p99LatencyMs, 1)} | ` +
        `${errorsText(afterPause)}, ${errorsText(next)} |`,
    ),
    '',
  ];
}

export function renderPostingSection(
  cells: readonly Cell[],
  checks: readonly BooksCheck[],
  config: Pick<BenchConfig, 'concurrencies' | 'batchConcurrencies' | 'apiProcesses' | 'pauseSeconds'>,
  processCells: readonly ProcessCell[] = [],
  freshWindows: readonly FreshWindow[] = [],
  pauseRounds: readonly PauseRound[] = [],
): string[] {
  return [
    '## Posting',
    '',
    'Each row is the median of the runs (p99 = median of the runs\' p99). "clients" = concurrent closed-loop clients',
    '(HTTP keep-alive sockets for the API, pg connections for plain SQL). A request is one transfer, or for batchN one',
    'batch of N transfers (one HTTP request, or one SQL transaction); errors count transfers not created. Connection',
    "columns: mean number of that mode's PostgreSQL connections in each state, sampled from pg_stat_activity every " +
      '50 ms.',
    '',
    ...resultsTable(cells),
    '',
    ...peersTable(cells),
    ...processesTable(cells, processCells, config),
    ...ratiosTable(cells, config.concurrencies),
    ...batchRatiosTable(cells, config.batchConcurrencies),
    ...freshTable(cells, freshWindows, Math.max(...config.batchConcurrencies)),
    ...afterPauseTable(pauseRounds, config.pauseSeconds, Math.max(...config.concurrencies)),
    'Books checks (after setup and after each workload):',
    '',
    ...checks.map(
      (check) =>
        `- ${check.ok ? 'OK' : 'FAIL'} ${check.label}: net ${JSON.stringify(check.netByCurrency)}, ` +
        `negative accounts ${check.negativeAccounts}, accounts disagreeing with entries ` +
        `${check.accountsDisagreeingWithEntries}`,
    ),
    '',
  ];
}
