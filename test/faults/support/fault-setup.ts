import { clearFigures, writeSummary } from './fault-report';
import { FAULT_SEED } from './seeded-random';

/**
 * Global setup of the fault suite: one seed for every file (passed on through FAULT_SEED, so each
 * worker draws from it), and at the end the summary in test-results/faults.json.
 */
export default async function faultSetup(): Promise<() => Promise<void>> {
  process.env.FAULT_SEED = String(FAULT_SEED);
  console.log(`fault suite seed: ${FAULT_SEED} (replay with FAULT_SEED=${FAULT_SEED})`);
  await clearFigures();
  const startedAt = Date.now();
  return () => writeSummary(startedAt);
}
