import type { Database } from '@ledger/db';
import type { PostBatchUseCase } from '@ledger/ledger';

// The ledger side of the reconcile bench: N gateway charges posted through PostBatchUseCase, exactly
// as the API would write them (journal chain, cached balances, triggers on).

export const SEED_BATCH = 1000;
/** Batches in flight: one plans and hashes in Node while the other writes under the account locks. */
export const SEED_BATCHES_IN_FLIGHT = 2;
/** Statistics are refreshed each time the ledger has grown this many times over since the last refresh. */
const ANALYZE_GROWTH_FACTOR = 2;
const ANALYZE_FIRST_AT = 10_000;

export const amountMinor = (index: number) => 1000 + (index % 9000);

function charges(start: number, count: number) {
  return Array.from({ length: count }, (_, offset) => ({
    externalRef: `ch_${start + offset}`,
    entries: [
      { account: 'assets:gateway', direction: 'debit', amount: String(amountMinor(start + offset)), currency: 'USD' },
      { account: 'income:sales', direction: 'credit', amount: String(amountMinor(start + offset)), currency: 'USD' },
    ],
  }));
}

/**
 * Posts `count` charges, each externalRef `ch_<index>`, debit the clearing account, credit sales.
 * The local server runs without autovacuum, so planner statistics would stay those of an empty
 * ledger, and the posting statements' cached generic plans with them (the externalRef lookup then
 * filters every transaction of the tenant through the batch's 1,000 references, so the seed slows
 * down quadratically). Refreshing them as the ledger grows is what autovacuum's analyze does.
 */
export async function postCharges(
  database: Database,
  posting: PostBatchUseCase,
  tenantId: string,
  count: number,
): Promise<void> {
  let analyzedAt = 0;
  const inFlight = new Set<Promise<unknown>>();
  for (let start = 0; start < count; start += SEED_BATCH) {
    if (start >= Math.max(ANALYZE_FIRST_AT, analyzedAt * ANALYZE_GROWTH_FACTOR)) {
      await Promise.all(inFlight);
      await database.sql.query('ANALYZE transactions, entries, journal_links, outbox_events');
      analyzedAt = start;
    }
    if (inFlight.size >= SEED_BATCHES_IN_FLIGHT) await Promise.race(inFlight);
    const batch = posting
      .execute({ tenantId, actor: 'bench', transactions: charges(start, Math.min(SEED_BATCH, count - start)) })
      .then((outcome) => {
        inFlight.delete(batch);
        const refused = outcome.results.find((result) => result.status !== 'created');
        if (refused)
          throw new Error(
            `seed transaction ${start + refused.index} was not created: ${JSON.stringify(refused.error)}`,
          );
      });
    inFlight.add(batch);
  }
  await Promise.all(inFlight);
}
