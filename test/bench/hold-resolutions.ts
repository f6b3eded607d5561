// Holds and what resolves them, through the API: single transfers (for reference), a hold then its capture
// (a card payment's two requests), captures only and voids only, each at BENCH_CONCURRENCIES' highest
// number of closed-loop clients for BENCH_RESOLUTION_SECONDS, BENCH_RUNS times on one API process and
// database. Prints medians with min-max, p50/p99 and the API's CPU per operation. See README.md.
//   npm run bench:holds
import { randomBytes, randomUUID } from 'node:crypto';
import { freePort } from '../support/free-port';
import { startApp } from './app-process';
import { loadBenchConfig } from './bench-config';
import { dropDatabase, recreateDatabase } from './bench-database';
import { setupApiFixture } from './bench-setup';
import { type PhaseRun, measureClosedLoop, printPhaseTable } from './closed-loop';
import { HttpClient } from './http-client';
import { CURRENCY, TRANSFER_AMOUNT_MAX_MINOR } from './workloads';

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
  const config = loadBenchConfig();
  const clients = Math.max(...config.concurrencies);
  const operatorToken = `bench-operator-${randomBytes(12).toString('hex')}`;
  const databaseName = `${config.databaseName}_holds`;
  const databaseUrl = await recreateDatabase(config.adminDatabaseUrl, databaseName);
  const api = await startApp({
    app: 'api',
    databaseUrl,
    port: await freePort(),
    adminToken: operatorToken,
    poolSize: config.apiPoolSize,
    nodeArgs: config.apiNodeArgs,
    node: config.apiNode,
  });
  const http = new HttpClient(api.baseUrl, clients);
  try {
    const fixture = await setupApiFixture(http, config, operatorToken);
    const post = async (path: string, body: unknown): Promise<{ id: string }> => {
      const answer = await http.request({
        method: 'POST',
        path,
        bearer: fixture.posterKey,
        idempotencyKey: randomUUID(),
        body,
      });
      if (answer.status !== 201) throw new Error(`${path}: ${answer.status} ${answer.body.slice(0, 300)}`);
      return JSON.parse(answer.body);
    };
    const transfer = () => {
      const wallets = fixture.walletIds;
      const from = Math.floor(Math.random() * wallets.length);
      const to = (from + 1 + Math.floor(Math.random() * (wallets.length - 1))) % wallets.length;
      const amount = String(1 + Math.floor(Math.random() * TRANSFER_AMOUNT_MAX_MINOR));
      return {
        entries: [
          { account: wallets[from], direction: 'debit', amount, currency: CURRENCY },
          { account: wallets[to], direction: 'credit', amount, currency: CURRENCY },
        ],
      };
    };
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

    const measure = (operation: () => Promise<boolean>, durationS = seconds) =>
      measureClosedLoop(api.process.pid, clients, durationS, operation);

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
  } finally {
    await api.process.stop();
    if (!config.keepDatabases) await dropDatabase(config.adminDatabaseUrl, databaseName);
  }
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
