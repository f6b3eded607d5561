import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, TEST_OPERATOR_TOKEN, startApi } from './support/api-harness';
import { type TestTenant, mustPost, seededTenant, transfer, walletAndShop } from './support/ledger-fixtures';

const METRICS_TOKEN = 'scraper-token-0123456789abcdef';

async function scrape(api: ApiHarness, token?: string): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  const response = await fetch(`${api.baseUrl}/metrics`, { headers });
  return { status: response.status, text: await response.text() };
}

function sample(text: string, name: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  if (line === undefined) throw new Error(`no ${name} in the scrape`);
  return Number(line.slice(name.length + 1));
}

async function postOne(api: ApiHarness, tenant: TestTenant): Promise<void> {
  const { wallet } = await walletAndShop(api, tenant);
  await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, '1'));
}

describe('/metrics with a metrics token, figures cached', () => {
  let api: ApiHarness;
  let tenant: TestTenant;

  beforeAll(async () => {
    api = await startApi({ settings: { LEDGER_METRICS_TOKEN: METRICS_TOKEN, LEDGER_METRICS_CACHE_SECONDS: '300' } });
    tenant = await seededTenant(api, 'metrics');
  });
  afterAll(async () => {
    await api?.close();
  });

  it('answers the metrics token and the operator token only, nothing near them', async () => {
    expect((await scrape(api)).status).toBe(401);
    expect(JSON.parse((await scrape(api)).text).error.code).toBe('UNAUTHENTICATED');
    for (const wrong of [tenant.adminKey, `${METRICS_TOKEN}x`, METRICS_TOKEN.slice(0, -1), 'garbage'])
      expect((await scrape(api, wrong)).status, wrong).toBe(401);
    expect((await scrape(api, METRICS_TOKEN)).status).toBe(200);
    expect((await scrape(api, TEST_OPERATOR_TOKEN)).status).toBe(200);
  });

  it('reads the database once per cache period: scrapes within it give the same figures after a change', async () => {
    await postOne(api, tenant);
    const before = await scrape(api, METRICS_TOKEN);
    await postOne(api, tenant);
    await postOne(api, tenant);
    const after = await scrape(api, METRICS_TOKEN);
    for (const name of ['ledger_outbox_unpublished_events', 'ledger_webhook_unqueued_events'])
      expect(sample(after.text, name), name).toBe(sample(before.text, name));
    // The posting counter is this process's own, not read from the database: it moves at once.
    expect(sample(after.text, 'ledger_postings_total{operation="post",status="2xx"}')).toBeGreaterThan(
      sample(before.text, 'ledger_postings_total{operation="post",status="2xx"}'),
    );
  });

  it('/health stays public and says up and lag ages, never how many events wait', async () => {
    const health = await api.request('GET', '/health');
    expect(health.status).toBe(200);
    expect(Object.keys(health.body).sort()).toEqual(['database', 'outbox', 'status', 'warnings']);
    expect(Object.keys(health.body.outbox).sort()).toEqual([
      'lagging',
      'oldestUnpublishedAgeSeconds',
      'oldestUnqueuedAgeSeconds',
      'status',
    ]);
  });
});

describe('/metrics without a metrics token', () => {
  let api: ApiHarness;
  let tenant: TestTenant;

  beforeAll(async () => {
    api = await startApi({ settings: { LEDGER_METRICS_CACHE_SECONDS: '0' } });
    tenant = await seededTenant(api, 'metrics default');
  });
  afterAll(async () => {
    await api?.close();
  });

  it('takes the operator token alone, and without a cache sees every change', async () => {
    expect((await scrape(api)).status).toBe(401);
    expect((await scrape(api, tenant.adminKey)).status).toBe(401);
    const before = await scrape(api, TEST_OPERATOR_TOKEN);
    expect(before.status).toBe(200);
    await postOne(api, tenant);
    const after = await scrape(api, TEST_OPERATOR_TOKEN);
    expect(sample(after.text, 'ledger_outbox_unpublished_events')).toBeGreaterThan(
      sample(before.text, 'ledger_outbox_unpublished_events'),
    );
  });
});
