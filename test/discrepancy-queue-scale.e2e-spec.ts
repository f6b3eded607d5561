import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { sqlRows, setupTenant } from './support/ledger-fixtures';
import { financeKey } from './support/reconciliation-fixtures';

// The console's queue over 100,000 tickets: every view it asks for is one bounded, index-friendly
// query, so each answer stays well under a second even on a busy two-core machine.

const TICKETS = 100_000;
/** Generous: the queries take tens of milliseconds; the bound catches a full sort or a per-row fetch. */
const ANSWER_MS_MAX = 1_500;
const INSERT_BATCH_ROWS = 2_000;

let api: ApiHarness;
let key: string;

beforeAll(async () => {
  api = await startApi();
  const tenant = await setupTenant(api, 'busy');
  key = await financeKey(api, tenant);
  // Short transactions of a few thousand rows each: the event feed of every test database waits for
  // the cluster's oldest running transaction, so one long insert here would stall the other files' feeds.
  for (let first = 1; first <= TICKETS; first += INSERT_BATCH_ROWS) {
    await sqlRows(
      api,
      `INSERT INTO discrepancies (tenant_id, id, fingerprint, kind, severity, status, owner, summary, amount_minor,
                                 currency, evidence, opened_at, updated_at, due_at)
       SELECT $1, gen_random_uuid(), 'load:' || n,
              (ARRAY['missing_in_ledger', 'missing_in_statement', 'amount_mismatch', 'duplicate'])[1 + n % 4], 'high',
              CASE WHEN n % 10 < 7 THEN 'resolved' WHEN n % 10 < 9 THEN 'open' ELSE 'acknowledged' END,
              'team-' || (n % 10), 'load ticket ' || n, (n * 7919) % 1000000, 'USD', '{}',
              now() - (n % 90) * interval '1 day', now(), now() - (n % 90) * interval '1 day' + interval '2 days'
         FROM generate_series($2::int, $3::int) AS n`,
      [tenant.tenantId, first, Math.min(first + INSERT_BATCH_ROWS - 1, TICKETS)],
    );
  }
  await sqlRows(api, 'ANALYZE discrepancies');
}, 120_000);

afterAll(async () => {
  await api?.close();
});

async function timed(path: string): Promise<{ body: any; ms: number }> {
  const started = performance.now();
  const response = await api.request('GET', path, { key });
  const ms = performance.now() - started;
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { body: response.body, ms };
}

describe('the discrepancy queue at 100,000 tickets', () => {
  it('counts every ticket by status and overdue in one answer', async () => {
    const { body, ms } = await timed('/v1/discrepancies/counts');
    expect(body.total).toBe(TICKETS);
    expect(body.byStatus).toEqual({ open: 20_000, acknowledged: 10_000, resolved: 70_000, ignored: 0 });
    expect(body.overdue).toBeGreaterThan(25_000);
    expect(ms).toBeLessThan(ANSWER_MS_MAX);
  });

  it('serves each filtered page the console asks for, and pages on without repeating a ticket', async () => {
    const weekAgo = encodeURIComponent(new Date(Date.now() - 7 * 24 * 3600 * 1000).toISOString());
    const views = [
      '/v1/discrepancies?limit=50',
      '/v1/discrepancies?limit=50&status=open',
      '/v1/discrepancies?limit=50&status=acknowledged&owner=team-9&kind=missing_in_statement',
      `/v1/discrepancies?limit=50&status=open&openedBefore=${weekAgo}`,
      '/v1/discrepancies?limit=50&overdue=true&minAmount=990000',
    ];
    for (const view of views) {
      const { body, ms } = await timed(view);
      expect(body.data.length, view).toBeGreaterThan(0);
      expect(ms, view).toBeLessThan(ANSWER_MS_MAX);
    }
    const seen = new Set<string>();
    let cursor: string | null = null;
    for (let page = 0; page < 5; page++) {
      const { body, ms } = await timed(`/v1/discrepancies?limit=200&status=open${cursor ? `&cursor=${cursor}` : ''}`);
      for (const ticket of body.data) {
        expect(ticket.status).toBe('open');
        seen.add(ticket.id);
      }
      expect(ms).toBeLessThan(ANSWER_MS_MAX);
      cursor = body.nextCursor;
    }
    expect(seen.size).toBe(1_000);
  });
});
