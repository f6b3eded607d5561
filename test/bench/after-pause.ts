// A client's burst after a pause: the API idle for BENCH_PAUSE_SECONDS, then one single transfer from each
// of the highest concurrency's clients at once, then the same burst again at once. Whatever the API lets go
// while idle (pooled connections, remembered keys) is paid by the first burst.
import { setTimeout as sleep } from 'node:timers/promises';
import { type BenchContext, describeRun, measureRun } from './posting-runs';
import { PAUSE_WORKLOAD, type PauseRound } from './posting-report';

export async function measureAfterPauses(context: BenchContext): Promise<PauseRound[]> {
  const { config } = context;
  if (config.pauseSeconds === 0) return [];
  const clients = Math.max(...config.concurrencies);
  const burst = () => measureRun(context, PAUSE_WORKLOAD, clients, 'api', clients, 'as-they-are');
  const rounds: PauseRound[] = [];
  for (let round = 1; round <= config.pauseRounds; round++) {
    await sleep(config.pauseSeconds * 1000);
    const afterPause = await burst();
    const next = await burst();
    rounds.push({ afterPause, next });
    context.log(describeRun(`after a ${config.pauseSeconds} s pause, round ${round}: burst of ${clients}`, afterPause));
    context.log(describeRun(`after a ${config.pauseSeconds} s pause, round ${round}: next burst`, next));
  }
  return rounds;
}
