import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { type ApiHarness, startApi } from './support/api-harness';
import { startWorker } from './support/worker-harness';

// A worker told to stop while its scheduled reconciliation is running must let that run finish before
// it lets go of the database: a run abandoned half-way keeps its tenant "running" until the lease runs out.

async function runStatuses(api: ApiHarness): Promise<string[]> {
  const rows = await api.db.database.sql.query<{ status: string }>(
    'SELECT status FROM reconciliation_runs ORDER BY started_at',
  );
  return rows.map((row) => row.status);
}

async function waitFor(condition: () => Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('worker shutdown', () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await startApi();
    await api.createTenant('shutdown');
  });
  afterAll(async () => {
    await api.close();
  });

  it('waits for a scheduled reconciliation run in progress, which then completes', async () => {
    // Holding the tickets' table exclusively stalls the run once it has claimed its tenant.
    const blocker = new pg.Client({ connectionString: api.db.url });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE discrepancies IN ACCESS EXCLUSIVE MODE');
    const worker = await startWorker(api, { RECONCILE_CRON: '* * * * * *' });
    let closed = false;
    try {
      await waitFor(async () => (await runStatuses(api)).includes('running'), 'a running reconciliation run');
      const closing = worker.close().then(() => (closed = true));
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(closed).toBe(false);
      await blocker.query('COMMIT');
      await closing;
    } finally {
      await blocker.end();
      if (!closed) await worker.close();
    }
    const statuses = await runStatuses(api);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((status) => status === 'completed')).toBe(true);
  });
});
