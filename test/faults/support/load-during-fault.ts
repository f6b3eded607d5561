import type { FaultTenant } from './fault-tenant';
import { FAULT_SETTINGS } from './fault-settings';
import type { LedgerStack } from './ledger-stack';
import { PostingLoad } from './posting-load';
import { FAULT_SEED, SeededRandom } from './seeded-random';

/**
 * FAULT_SETTINGS.clients seeded clients post through the stack for `loadMs`, and on until `fault` (which
 * starts with them) has done its harm; then every request left without an answer is retried with its
 * same key and body. Answers the load (what was acknowledged, and every answer seen), what `fault`
 * answered and the retry's outcome.
 */
export async function loadDuringFault<T>(
  stack: LedgerStack,
  tenant: FaultTenant,
  label: string,
  loadMs: number,
  fault: (startedAt: number) => Promise<T>,
) {
  const load = new PostingLoad(tenant.wallets, (operation) =>
    stack.request('POST', operation.path, {
      key: tenant.posterKey,
      body: operation.body,
      idempotencyKey: operation.idempotencyKey,
    }),
  );
  const startedAt = Date.now();
  let faulting = true;
  const clients = Array.from({ length: FAULT_SETTINGS.clients }, (_, index) =>
    load.runClient(
      new SeededRandom(FAULT_SEED, `${label} client ${index}`),
      () => faulting || Date.now() - startedAt < loadMs,
    ),
  );
  const faults = await fault(startedAt).finally(() => (faulting = false));
  await Promise.all(clients);
  const retry = await load.retryUnacknowledged();
  return { load, faults, retry };
}
