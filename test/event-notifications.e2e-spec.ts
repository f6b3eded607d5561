import { ANNOUNCE_INTERVAL_MS, OUTBOX_CHANNEL } from '@ledger/outbox';
import { afterEach, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { mustPost, seededTenant, transfer, walletAndShop } from './support/ledger-fixtures';
import { waitUntil } from './support/relay-fixtures';

// The workers hear of committed events (README, "Event delivery: the relay"): each process that writes them
// notifies the outbox channel once they have committed, so the relay and the webhook queue look at once
// instead of at the end of their idle pause.
describe.each([
  { name: 'PostgreSQL', embedded: false },
  { name: 'the embedded database', embedded: true },
])('the outbox channel, on $name', ({ embedded }) => {
  let api: ApiHarness | undefined;

  afterEach(async () => {
    await api?.close();
  });

  it('hears of a posting once it has committed', async () => {
    api = await startApi({ embedded });
    const tenant = await seededTenant(api, 'outbox channel');
    const { wallet, shop } = await walletAndShop(api, tenant);
    await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, '500'));
    // Past the interval in which the set-up's own postings may still be announced.
    await new Promise((resolve) => setTimeout(resolve, ANNOUNCE_INTERVAL_MS * 5));
    let heard = false;
    const listener = await api.db.database.listen(OUTBOX_CHANNEL, () => (heard = true));
    try {
      const posted = await mustPost(api, tenant.posterKey, transfer(wallet, shop, '10'));
      expect(posted.status).toBe('posted');
      await waitUntil(async () => heard, 10_000, 'the posting is announced on the outbox channel');
    } finally {
      await listener.close();
    }
  });
});
