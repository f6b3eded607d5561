import type { SuiteName } from './bench-config';
import type { Cell } from './posting-report';
import { median } from './stats';
import { MODES, type WorkloadName } from './workloads';

/**
 * One workload of the bench, the ledger's code path beside its plain SQL baseline: throughput of each
 * measured run, and their medians. What the report's summary table and the chart show.
 */
export interface Comparison {
  suite: SuiteName;
  workload: string;
  /** What a unit of work is: 'transfers/s', 'lines/s'. */
  unit: string;
  /** What ran on the ledger's side: the API over HTTP, or a use case in the bench's process. */
  ledgerPath: string;
  ledgerRuns: number[];
  baselineRuns: number[];
  ledgerMedian: number;
  baselineMedian: number;
  /**
   * CPU microseconds of the bench process per unit of work in each ledger run, where the ledger's code runs in
   * it (the import suite): the figure a noisy shared machine skews least.
   */
  ledgerCpuMicrosPerUnitRuns?: number[];
  ledgerCpuMicrosPerUnitMedian?: number;
}

export function compare(fields: Omit<Comparison, 'ledgerMedian' | 'baselineMedian'>): Comparison {
  const cpu = fields.ledgerCpuMicrosPerUnitRuns;
  return {
    ...fields,
    ledgerMedian: median(fields.ledgerRuns),
    baselineMedian: median(fields.baselineRuns),
    ...(cpu === undefined ? {} : { ledgerCpuMicrosPerUnitMedian: median(cpu) }),
  };
}

const WORKLOAD_LABELS: Record<WorkloadName, string> = {
  uncontended: 'single transfers, uncontended',
  hot: 'single transfers, hot account',
  batch100: 'batches of 100',
  batch1000: 'batches of 1000',
};

/** Each (workload, clients) of the posting suite that was measured in both modes. */
export function postingComparisons(cells: readonly Cell[]): Comparison[] {
  const comparisons: Comparison[] = [];
  for (const cell of cells.filter((candidate) => candidate.mode === MODES[0])) {
    const baseline = cells.find(
      (other) => other.mode === 'sql' && other.workload === cell.workload && other.concurrency === cell.concurrency,
    );
    if (baseline === undefined) continue;
    comparisons.push(
      compare({
        suite: 'posting',
        workload: `${WORKLOAD_LABELS[cell.workload]}, ${cell.concurrency} clients`,
        unit: 'transfers/s',
        ledgerPath: 'API (HTTP)',
        ledgerRuns: cell.summary.runs.map((run) => run.transfersPerSecond),
        baselineRuns: baseline.summary.runs.map((run) => run.transfersPerSecond),
      }),
    );
  }
  return comparisons;
}
