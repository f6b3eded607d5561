import type { INestApplicationContext } from '@nestjs/common';
import { ScheduledJobs } from '@ledger/jobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { type TestTenant, createAccount, seededTenant, sqlRows } from './support/ledger-fixtures';
import { bankCsv, createSource, financeKey, statementDay, uploadStatement } from './support/reconciliation-fixtures';
import { startWorker } from './support/worker-harness';

let api: ApiHarness;
let worker: INestApplicationContext | undefined;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await worker?.close();
  await api?.close();
});

/** A tenant with a bank source and one deposit the ledger never heard of: its run opens one ticket. */
async function tenantWithADeposit(name: string): Promise<TestTenant> {
  const tenant = await seededTenant(api, name);
  await createAccount(api, tenant.adminKey, {
    code: 'assets:bank',
    currency: 'USD',
    normalBalance: 'debit',
    allowNegative: true,
  });
  const key = await financeKey(api, tenant);
  await createSource(api, key, { name: 'bank', account: 'assets:bank', format: 'csv:bank' });
  const day = statementDay(-1);
  await uploadStatement(api, key, 'bank', 'statement.csv', bankCsv([`${day},${day},deposit,12.00,USD,R1,payer`]));
  return tenant;
}

function runsOf(tenant: TestTenant) {
  return sqlRows<{ status: string; error: string | null; trigger: string }>(
    api,
    'SELECT status, error, trigger FROM reconciliation_runs WHERE tenant_id = $1 ORDER BY started_at',
    [tenant.tenantId],
  );
}

describe('the scheduled reconciliation: one tenant failing never stops the others', () => {
  it('reconciles the tenants after a failing one on the same tick, and records the failure on its run', async () => {
    // Tenants are reconciled in id order (ids are time-ordered): the first one made is the first one run.
    const failing = await tenantWithADeposit('failing first');
    const healthy = await tenantWithADeposit('healthy second');
    // The database refuses every new ticket of the first tenant: its run fails when it opens one.
    await sqlRows(
      api,
      `ALTER TABLE discrepancies ADD CONSTRAINT refuses_failing_tenant CHECK (tenant_id <> '${failing.tenantId}')
       NOT VALID`,
    );
    try {
      // No tick of its own during the test (once a year); the test runs one tick as the schedule would.
      worker = await startWorker(api, { RECONCILE_CRON: '0 0 1 1 *' });
      const jobs = worker.get(ScheduledJobs);
      const reconcile = jobs.jobs().find((job) => job.name === 'reconcile')!;
      await jobs.runOnce(reconcile);

      const failed = await runsOf(failing);
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ status: 'failed', trigger: 'schedule' });
      expect(failed[0]!.error).toContain('refuses_failing_tenant');

      expect(await runsOf(healthy)).toEqual([{ status: 'completed', error: null, trigger: 'schedule' }]);
      const tickets = await sqlRows<{ kind: string }>(api, 'SELECT kind FROM discrepancies WHERE tenant_id = $1', [
        healthy.tenantId,
      ]);
      expect(tickets).toEqual([{ kind: 'missing_in_ledger' }]);
    } finally {
      await sqlRows(api, 'ALTER TABLE discrepancies DROP CONSTRAINT refuses_failing_tenant');
    }
  });
});
