import { setTimeout as sleep } from 'node:timers/promises';
import type { LedgerStack } from './ledger-stack';
import type { SeededRandom } from './seeded-random';

export type KillTarget = 'api' | 'worker';

export interface PlannedKill {
  /** Milliseconds after the load started. */
  atMs: number;
  target: KillTarget;
  /** How long the process stays dead before it is started again. */
  downtimeMs: number;
}

const DOWNTIME_MAX_MS = 1_000;

/**
 * `count` kills at seeded-random moments within the load (not in its first or last tenth, so that
 * postings are in flight), alternating targets from a random first one so that both die.
 */
export function planKills(random: SeededRandom, count: number, loadMs: number): PlannedKill[] {
  const moments = Array.from({ length: count }, () => Math.round(loadMs * (0.1 + 0.8 * random.next()))).sort(
    (a, b) => a - b,
  );
  const first: KillTarget = random.next() < 0.5 ? 'api' : 'worker';
  return moments.map((atMs, index) => ({
    atMs,
    target: index % 2 === 0 ? first : first === 'api' ? 'worker' : 'api',
    downtimeMs: random.between(0, DOWNTIME_MAX_MS),
  }));
}

/** Carries out the plan against the stack: SIGKILL, wait, start again. A kill due during a restart waits for it. */
export async function carryOutKills(
  stack: LedgerStack,
  plan: readonly PlannedKill[],
  loadStartedAt: number,
): Promise<{ target: KillTarget; atMs: number; pid: number }[]> {
  const done = [];
  for (const kill of plan) {
    await sleep(Math.max(0, loadStartedAt + kill.atMs - Date.now()));
    const victim = kill.target === 'api' ? stack.api : stack.worker;
    const pid = victim?.pid ?? -1;
    if (kill.target === 'api') await stack.killApi();
    else await stack.killWorker();
    done.push({ target: kill.target, atMs: Date.now() - loadStartedAt, pid });
    await sleep(kill.downtimeMs);
    if (kill.target === 'api') await stack.startApi();
    else await stack.startWorker();
  }
  return done;
}
