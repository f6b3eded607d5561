import type { LoadResult } from './load-loop';
import type { ConnectionStates } from './pg-activity';

export interface RunSummary {
  transfersPerSecond: number;
  p50LatencyMs: number;
  p99LatencyMs: number;
  succeeded: number;
  errorCount: number;
  errors: Record<string, number>;
  elapsedMs: number;
  timedOut: boolean;
  /** CPU time per successful transfer, by process group (see cpu-usage.ts). */
  cpuMsPerTransfer: CpuPerTransfer;
  /** WAL the server wrote during the run, per successful transfer (see posting-runs.ts). */
  walBytesPerTransfer: number;
  connectionStates: ConnectionStates;
}

export interface CpuPerTransfer {
  apiNode: number;
  postgres: number;
  benchClient: number;
}

export interface CellSummary extends RunSummary {
  runs: RunSummary[];
}

/** Nearest-rank percentile of an unsorted sample; NaN for an empty one. */
export function percentile(values: Float64Array, fraction: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank]!;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function summarizeRun(
  result: LoadResult,
  cpuMsPerTransfer: CpuPerTransfer,
  walBytesPerTransfer: number,
  connectionStates: ConnectionStates,
): RunSummary {
  const errorCount = Object.values(result.errors).reduce((sum, count) => sum + count, 0);
  return {
    transfersPerSecond: result.elapsedMs > 0 ? (result.transfersCreated * 1000) / result.elapsedMs : 0,
    p50LatencyMs: percentile(result.latenciesMs, 0.5),
    p99LatencyMs: percentile(result.latenciesMs, 0.99),
    succeeded: result.transfersCreated,
    errorCount,
    errors: result.errors,
    elapsedMs: result.elapsedMs,
    timedOut: result.timedOut,
    cpuMsPerTransfer,
    walBytesPerTransfer,
    connectionStates,
  };
}

/**
 * Each figure is the median over the runs, taken separately (so p99 is the median of the runs' p99s);
 * errors are summed, since any error at all matters.
 */
export function summarizeCell(runs: RunSummary[]): CellSummary {
  const errors: Record<string, number> = {};
  for (const run of runs)
    for (const [label, count] of Object.entries(run.errors)) errors[label] = (errors[label] ?? 0) + count;
  return {
    transfersPerSecond: median(runs.map((run) => run.transfersPerSecond)),
    p50LatencyMs: median(runs.map((run) => run.p50LatencyMs)),
    p99LatencyMs: median(runs.map((run) => run.p99LatencyMs)),
    succeeded: runs.reduce((sum, run) => sum + run.succeeded, 0),
    errorCount: runs.reduce((sum, run) => sum + run.errorCount, 0),
    errors,
    elapsedMs: median(runs.map((run) => run.elapsedMs)),
    timedOut: runs.some((run) => run.timedOut),
    cpuMsPerTransfer: {
      apiNode: median(runs.map((run) => run.cpuMsPerTransfer.apiNode)),
      postgres: median(runs.map((run) => run.cpuMsPerTransfer.postgres)),
      benchClient: median(runs.map((run) => run.cpuMsPerTransfer.benchClient)),
    },
    walBytesPerTransfer: median(runs.map((run) => run.walBytesPerTransfer)),
    connectionStates: {
      waitingForClient: median(runs.map((run) => run.connectionStates.waitingForClient)),
      lockWait: median(runs.map((run) => run.connectionStates.lockWait)),
      executing: median(runs.map((run) => run.connectionStates.executing)),
      samples: runs.reduce((sum, run) => sum + run.connectionStates.samples, 0),
    },
    runs,
  };
}
