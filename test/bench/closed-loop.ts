// Closed-loop clients against one API process, and the table of medians the benches apart from the
// report print (holds and their resolutions, reads).
import { processCpuMs } from './cpu-usage';
import { median, percentile } from './stats';

export interface PhaseRun {
  perSecond: number;
  p50: number;
  p99: number;
  /** CPU of the measured process per operation, ms; NaN where no process of ours served it. */
  cpuMs: number;
}

/**
 * `clients` closed-loop clients each run `operation` for `durationS`, or until it answers false (it had
 * nothing left to do). `pid`'s CPU over the span is divided by the operations done.
 */
export async function measureClosedLoop(
  pid: number,
  clients: number,
  durationS: number,
  operation: () => Promise<boolean>,
): Promise<PhaseRun> {
  const latencies: number[] = [];
  const cpuBefore = processCpuMs(pid);
  const startedAt = performance.now();
  const endsAt = startedAt + durationS * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < endsAt) {
        const sentAt = performance.now();
        if (!(await operation())) return;
        latencies.push(performance.now() - sentAt);
      }
    }),
  );
  const elapsedS = (performance.now() - startedAt) / 1000;
  const cpuMs = processCpuMs(pid) - cpuBefore;
  return { ...latencySummary(Float64Array.from(latencies), elapsedS), cpuMs: cpuMs / latencies.length };
}

/** Operations per second and the p50/p99 of `latenciesMs`, done in `elapsedS`. */
export function latencySummary(latenciesMs: Float64Array, elapsedS: number): Omit<PhaseRun, 'cpuMs'> {
  return {
    perSecond: latenciesMs.length / elapsedS,
    p50: percentile(latenciesMs, 0.5),
    p99: percentile(latenciesMs, 0.99),
  };
}

/** A markdown table of each phase's medians over its runs, with the runs' min-max. */
export function printPhaseTable(runs: ReadonlyMap<string, PhaseRun[]>, cpuHeading: string): void {
  const fixed = (value: number, digits: number) => (Number.isNaN(value) ? 'n/a' : value.toFixed(digits));
  console.log(`| operation | per second | runs: min-max | p50 ms | p99 ms | ${cpuHeading} |`);
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [phase, phaseRuns] of runs) {
    const rates = phaseRuns.map((run) => run.perSecond);
    const cells = [
      phase,
      fixed(median(rates), 0),
      `${fixed(Math.min(...rates), 0)}-${fixed(Math.max(...rates), 0)}`,
      fixed(median(phaseRuns.map((run) => run.p50)), 1),
      fixed(median(phaseRuns.map((run) => run.p99)), 1),
      fixed(median(phaseRuns.map((run) => run.cpuMs)), 3),
    ];
    console.log(`| ${cells.join(' | ')} |`);
  }
}
