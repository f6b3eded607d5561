// Holds and what resolves them, through the API: single transfers (for reference), a hold then its capture
// (a card payment's two requests), captures only and voids only, each at BENCH_CONCURRENCIES' highest
// number of closed-loop clients for BENCH_RESOLUTION_SECONDS, BENCH_RUNS times on one API process and
// database. Prints medians with min-max, p50/p99 and the API's CPU per operation. See README.md.
//   npm run bench:holds
import { withBenchApi } from './bench-api';
import { type PhaseRun, printPhaseTable } from './closed-loop';
import { transferBody } from './http-load';
import { nextTransfer } from './workloads';

const SECONDS_MAX = 120;
const HOLD_LIFETIME_MS = 3_600_000;
const seconds = Math.min(SECONDS_MAX, Math.max(1, Number(process.env.BENCH_RESOLUTION_SECONDS ?? 5)));

const PHASES = ['transfers', 'hold then capture', 'captures', 'voids'] as const;
type Phase = (typeof PHASES)[number];
const PHASE_LABELS: Record<Phase, string> = {
  transfers: 'transfers',
  'hold then capture': 'hold then capture (pairs)',
  captures: 'captures',
  voids: 'voids',
};

async function main(): Promise<void> {
  await withBenchApi('holds', async ({ config, clients, fixture, post, measure: measureFor }) => {
    const transfer = () => transferBody(nextTransfer('uncontended', fixture));
    const hold = () =>
      post('/v1/transactions', {
        ...transfer(),
        pending: { expiresAt: new Date(Date.now() + HOLD_LIFETIME_MS).toISOString() },
      });
    const openHolds: string[] = [];
    const resolve = (action: 'post' | 'void') => async () => {
      const id = openHolds.pop();
      if (id === undefined) return false;
      await post(`/v1/transactions/${id}/${action}`, {});
      return true;
    };
    const work: Record<Phase, () => Promise<boolean>> = {
      transfers: async () => {
        await post('/v1/transactions', transfer());
        return true;
      },
      'hold then capture': async () => {
        const { id } = await hold();
        await post(`/v1/transactions/${id}/post`, {});
        return true;
      },
      captures: resolve('post'),
      voids: resolve('void'),
    };

    const measure = (operation: () => Promise<boolean>, durationS = seconds) => measureFor(operation, durationS);

    await measure(work['hold then capture']);
    const runs = new Map<Phase, PhaseRun[]>(PHASES.map((phase) => [phase, []]));
    for (let run = 0; run < config.runCount; run++) {
      for (const phase of PHASES) {
        // The holds that captures and voids resolve: made first, not measured, for twice as long as they run.
        if (phase === 'captures' || phase === 'voids') {
          openHolds.length = 0;
          const placeHold = async () => {
            openHolds.push((await hold()).id);
            return true;
          };
          await measure(placeHold, 2 * seconds);
        }
        runs.get(phase)!.push(await measure(work[phase]));
        console.error(`run ${run + 1}/${config.runCount} ${phase}: ${JSON.stringify(runs.get(phase)!.at(-1))}`);
      }
    }
    report(runs, clients);
  });
}

function report(runs: Map<Phase, PhaseRun[]>, clients: number): void {
  console.log(`Holds and their resolutions through the API, ${clients} clients, ${seconds} s a run, medians of runs:`);
  console.log('');
  const labelled = new Map([...runs].map(([phase, phaseRuns]) => [PHASE_LABELS[phase], phaseRuns]));
  printPhaseTable(labelled, 'API CPU ms per operation');
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
