import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { type TestTenant, createApiKey, setupTenant } from './support/ledger-fixtures';

// Limits that more keys cannot escape: a tenant's bucket spans all its keys; an address that presents
// wrong keys is refused before its next key costs a lookup. The windows are long (an hour) so that no
// token comes back during the test, however slow the machine.

let api: ApiHarness;
let tenant: TestTenant;
let other: TestTenant;
beforeAll(async () => {
  api = await startApi({
    settings: {
      RATE_LIMIT_TENANT_PER_SECOND: '1',
      RATE_LIMIT_TENANT_BURST: '12',
      AUTH_FAILURES_PER_ADDRESS_MAX: '5',
      AUTH_FAILURES_WINDOW_SECONDS: '3600',
    },
  });
  tenant = await setupTenant(api, 'limited');
  other = await setupTenant(api, 'neighbour');
});
afterAll(async () => {
  await api?.close();
});

describe('rate limit per tenant', () => {
  it("keys minted by an admin share their tenant's bucket; another tenant is not affected", async () => {
    const keys = [tenant.posterKey, await createApiKey(api, tenant.adminKey, ['auditor'])];
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, request) =>
        api.request('GET', '/v1/accounts?limit=1', { key: keys[request % 2]! }),
      ),
    );
    const elapsedSeconds = (performance.now() - started) / 1000;
    const refused = answers.filter((answer) => answer.status === 429);
    // 12 tokens, 2 spent on creating keys: each key alone is unlimited, yet together they get at most
    // the 10 left and 1 more per second that passed.
    expect(40 - refused.length).toBeLessThanOrEqual(10 + Math.ceil(elapsedSeconds));
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused[0]!.body.error.message).toMatch(/tenant/);
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await api.request('GET', '/v1/accounts?limit=1', { key: other.posterKey })).status).toBe(200);
  });
});

describe('failed authentications per address', () => {
  it('after 5 wrong keys the address is answered 429 without its next key being looked up', async () => {
    const wellFormed = `${other.posterKey.slice(0, -4)}${other.posterKey.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    for (let attempt = 0; attempt < 5; attempt++) {
      const answer = await api.request('GET', '/v1/accounts?limit=1', { key: wellFormed });
      expect(answer.status).toBe(401);
    }
    // Were the key looked up, this would be 401 again.
    const blocked = await api.request('GET', '/v1/accounts?limit=1', { key: wellFormed });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('RATE_LIMITED');
    expect(blocked.body.error.message).toMatch(/failed authentications/);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(1);
    // The operator token is guarded the same way.
    expect(
      (await api.request('POST', '/v1/tenants', { key: 'not-the-operator-token', body: { name: 'x' } })).status,
    ).toBe(429);
  });
});
