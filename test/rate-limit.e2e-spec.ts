import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { type TestTenant, setupTenant } from './support/ledger-fixtures';

let api: ApiHarness;
let tenant: TestTenant;
beforeAll(async () => {
  api = await startApi({ rateLimit: { perSecond: 1, burst: 5 } });
  tenant = await setupTenant(api, 'rate limited');
});
afterAll(async () => {
  await api?.close();
});

describe('rate limit per API key', () => {
  it('lets a burst through, then answers 429 RATE_LIMITED with Retry-After; another key is not affected', async () => {
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => api.request('GET', '/v1/accounts?limit=1', { key: tenant.posterKey })),
    );
    const elapsedSeconds = (performance.now() - started) / 1000;
    const allowed = answers.filter((answer) => answer.status === 200).length;
    const refused = answers.filter((answer) => answer.status === 429);
    // A token comes back every second: however slow the machine, no more than the burst plus those.
    expect(allowed).toBeGreaterThanOrEqual(5);
    expect(allowed).toBeLessThanOrEqual(5 + Math.ceil(elapsedSeconds));
    expect(allowed + refused.length).toBe(20);
    for (const answer of refused) {
      expect(answer.body.error.code).toBe('RATE_LIMITED');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    expect((await api.request('GET', '/v1/accounts?limit=1', { key: tenant.adminKey })).status).toBe(200);
  });
});
