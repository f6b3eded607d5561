// A client's burst after a pause: the API idle for BENCH_PAUSE_SECONDS, then one single transfer from each
// of the highest concurrency's clients at once, then the same burst again at once. Whatever the API lets go
// while idle (pooled connections, remembered keys) is paid by the first burst.
import { setTimeout as sleep } from 'node:timers/promises';
import { type BenchContext, describeRun, measureRun } from './posting-runs';
import type { RunSummary } from './stats';

const WORKLOAD = 'uncontended';

export interface PauseRound {
  pauseSeconds: number;
  afterPause: RunSummary;
  next: RunSummary;
}

export async function measureAfterPauses(context: BenchContext): Promise<PauseRound[]> {
  const { config } = context;
  if (config.pauseSeconds === 0) return [];
  const clients = Math.max(...config.concurrencies);
  const burst = () => measureRun(context, WORKLOAD, clients, 'api', clients, 'as-they-are');
  const rounds: PauseRound[] = [];
  for (let round = 1; round <= config.pauseRounds; round++) {
    await sleep(config.pauseSeconds * 1000);
    const afterPause = await burst();
    const next = await burst();
    rounds.push({ pauseSeconds: config.pauseSeconds, afterPause, next });
    context.log(describeRun(`after a ${config.pauseSeconds} s pause, round ${round}: burst of ${clients}`, afterPause));
    context.log(describeRun(`after a ${config.pauseSeconds} s pause, round ${round}: next burst`, next));
  }
  return rounds;
}

function milliseconds(value: number): string {
  return Number.isFinite(value) ? value.toFixed(1) : 'n/a';
}

function errors(run: RunSummary): string {
  return run.errorCount === 0 ? '0' : `${run.errorCount} ${JSON.stringify(run.errors)}`;
}

export function afterPauseTable(rounds: readonly PauseRound[], clients: number): string[] {
  if (rounds.length === 0) return [];
  return [
    `After a pause: the API idle for ${rounds[0]!.pauseSeconds} s, then one ${WORKLOAD} transfer from each of ` +
      `${clients} clients at once (new keep-alive sockets), then the same burst again at once:`,
    '',
    '| round | after the pause: p50 / slowest ms | next burst: p50 / slowest ms | errors (after, next) |',
    '|---:|---|---|---|',
    ...rounds.map(
      ({ afterPause, next }, index) =>
        `| ${index + 1} | ${milliseconds(afterPause.p50LatencyMs)} / ${milliseconds(afterPause.p99LatencyMs)} | ` +
        `${milliseconds(next.p50LatencyMs)} / ${milliseconds(next.p99LatencyMs)} | ` +
        `${errors(afterPause)}, ${errors(next)} |`,
    ),
    '',
  ];
}
