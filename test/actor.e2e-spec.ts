import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import {
  type TestTenant,
  createAccount,
  expectError,
  isoFromNow,
  mustPost,
  postWithKey,
  seededTenant,
  sqlRows,
  transfer,
} from './support/ledger-fixtures';
import {
  bankCsv,
  createSource,
  runReconciliation,
  statementDay,
  uploadStatement,
} from './support/reconciliation-fixtures';
import { waitUntil } from './support/relay-fixtures';
import { startWorker } from './support/worker-harness';

// Every money movement, import and run names who made it: the key's id over HTTP, `reconciler` for
// the schedule, `expiry` for the worker's hold expiry.

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

async function keyWithRoles(tenant: TestTenant, roles: string[], expiresAt?: string) {
  const created = await postWithKey(api, tenant.adminKey, '/v1/api-keys', {
    name: roles.join('+'),
    roles,
    ...(expiresAt === undefined ? {} : { expiresAt }),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { key: created.body.key as string, actor: `api-key:${created.body.id}`, body: created.body };
}

async function storedActor(table: string, tenantId: string, id: string): Promise<string> {
  const [row] = await sqlRows<{ actor: string }>(api, `SELECT actor FROM ${table} WHERE tenant_id = $1 AND id = $2`, [
    tenantId,
    id,
  ]);
  return row!.actor;
}

describe('actors', () => {
  it("a posting, a hold's capture and void, a reversal and a batch record the key that made them", async () => {
    const tenant = await seededTenant(api, 'accountable');
    await createAccount(api, tenant.adminKey, { code: 'wallet', currency: 'USD', normalBalance: 'credit' });
    const poster = await keyWithRoles(tenant, ['poster']);
    const other = await keyWithRoles(tenant, ['poster']);
    const posted = await mustPost(api, poster.key, transfer('equity:seed', 'wallet', '500'));
    expect(posted.actor).toBe(poster.actor);
    const hold = await mustPost(api, poster.key, {
      ...transfer('wallet', 'equity:seed', '40'),
      pending: { expiresAt: isoFromNow(60_000) },
    });
    const captured = await postWithKey(api, other.key, `/v1/transactions/${hold.id}/post`, {});
    expect(captured.body.actor).toBe(other.actor);
    const secondHold = await mustPost(api, poster.key, {
      ...transfer('wallet', 'equity:seed', '10'),
      pending: { expiresAt: isoFromNow(60_000) },
    });
    const voided = await postWithKey(api, other.key, `/v1/transactions/${secondHold.id}/void`, {});
    expect(voided.body.actor).toBe(other.actor);
    await mustPost(api, poster.key, transfer('equity:seed', 'wallet', '100'));
    const reversal = await postWithKey(api, other.key, `/v1/transactions/${posted.id}/reverse`, {});
    expect(reversal.status, JSON.stringify(reversal.body)).toBe(201);
    expect(reversal.body.actor).toBe(other.actor);
    const batch = await postWithKey(api, other.key, '/v1/transactions/batch', {
      transactions: [transfer('equity:seed', 'wallet', '1'), transfer('equity:seed', 'wallet', '2')],
    });
    expect(batch.body.results.map((result: any) => result.transaction.actor)).toEqual([other.actor, other.actor]);

    // As stored, and as every read shows it.
    for (const [id, actor] of [
      [posted.id, poster.actor],
      [captured.body.id, other.actor],
      [voided.body.id, other.actor],
      [reversal.body.id, other.actor],
    ]) {
      expect(await storedActor('transactions', tenant.tenantId, id)).toBe(actor);
      expect((await api.request('GET', `/v1/transactions/${id}`, { key: poster.key })).body.actor).toBe(actor);
    }
    const listed = (await api.request('GET', '/v1/transactions?limit=50', { key: poster.key })).body.data as any[];
    expect(new Set(listed.map((transaction) => transaction.actor))).toEqual(new Set([poster.actor, other.actor]));
  });

  it('an import and a run record the finance key that made them', async () => {
    const tenant = await seededTenant(api, 'accountable finance');
    await createAccount(api, tenant.adminKey, {
      code: 'assets:bank',
      currency: 'USD',
      normalBalance: 'debit',
      allowNegative: true,
    });
    const finance = await keyWithRoles(tenant, ['finance']);
    await createSource(api, finance.key, { name: 'bank', account: 'assets:bank', format: 'csv:bank' });
    const day = statementDay(-1);
    const imported = await uploadStatement(
      api,
      finance.key,
      'bank',
      'bank.csv',
      bankCsv([`${day},${day},Deposit,12.00,USD,REF-1,Acme`]),
    );
    expect(imported.actor).toBe(finance.actor);
    expect(await storedActor('statement_imports', tenant.tenantId, imported.id)).toBe(finance.actor);
    expect((await api.request('GET', `/v1/imports/${imported.id}`, { key: finance.key })).body.actor).toBe(
      finance.actor,
    );
    const run = await runReconciliation(api, finance.key);
    expect(run.actor).toBe(finance.actor);
    expect(await storedActor('reconciliation_runs', tenant.tenantId, run.id)).toBe(finance.actor);
    const listed = (await api.request('GET', '/v1/reconciliation/runs?limit=5', { key: finance.key })).body.data;
    expect(listed[0]).toMatchObject({ id: run.id, actor: finance.actor });
  });

  it('a key past its expiresAt is refused like a revoked one, even while its principal is cached', async () => {
    const tenant = await seededTenant(api, 'expiring keys');
    const past = await postWithKey(api, tenant.adminKey, '/v1/api-keys', {
      name: 'late',
      roles: ['poster'],
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    expect(past.status).toBe(400);
    expect(past.body.error.details.fields).toEqual([{ path: 'expiresAt', message: 'must be in the future' }]);
    const expiresAt = new Date(Date.now() + 2_500).toISOString();
    const shortLived = await keyWithRoles(tenant, ['poster'], expiresAt);
    expect(shortLived.body.expiresAt).toBe(expiresAt);
    const current = await api.request('GET', '/v1/api-keys/current', { key: shortLived.key });
    expect(current.status).toBe(200);
    expect(current.body).toMatchObject({ actor: shortLived.actor, expiresAt });
    await waitUntil(async () => Date.now() > Date.parse(expiresAt), 10_000, 'the key expires');
    expectError(await api.request('GET', '/v1/api-keys/current', { key: shortLived.key }), 401, 'UNAUTHENTICATED');
    const refused = await api.request('POST', '/v1/transactions', {
      key: shortLived.key,
      idempotencyKey: randomUUID(),
      body: transfer('equity:seed', 'equity:seed', '1'),
    });
    expectError(refused, 401, 'UNAUTHENTICATED');
  });

  describe('with the worker', () => {
    let worker: INestApplicationContext;
    afterAll(async () => {
      await worker?.close();
    });

    it('a scheduled run is by `reconciler`, and an expired hold by `expiry`', async () => {
      const tenant = await seededTenant(api, 'scheduled');
      await createAccount(api, tenant.adminKey, { code: 'wallet', currency: 'USD', normalBalance: 'credit' });
      await mustPost(api, tenant.posterKey, transfer('equity:seed', 'wallet', '100'));
      // Expires in two seconds; the worker's expiry job runs every ten.
      const hold = await mustPost(api, tenant.posterKey, {
        ...transfer('wallet', 'equity:seed', '40'),
        pending: { expiresAt: isoFromNow(2_000) },
      });
      // Every second (node-cron's six fields), so that the test does not wait for a quarter hour.
      worker = await startWorker(api, { RECONCILE_CRON: '* * * * * *' });
      const scheduled = async () =>
        sqlRows<{ actor: string; trigger: string }>(
          api,
          `SELECT actor, trigger FROM reconciliation_runs WHERE tenant_id = $1 AND trigger = 'schedule'`,
          [tenant.tenantId],
        );
      await waitUntil(async () => (await scheduled()).length > 0, 30_000, 'a scheduled run');
      expect((await scheduled())[0]).toEqual({ actor: 'reconciler', trigger: 'schedule' });
      const expired = async () =>
        sqlRows<{ actor: string }>(
          api,
          `SELECT actor FROM transactions WHERE tenant_id = $1 AND hold_id = $2 AND status = 'expired'`,
          [tenant.tenantId, hold.id],
        );
      await waitUntil(async () => (await expired()).length === 1, 30_000, 'the hold expires');
      expect((await expired())[0]!.actor).toBe('expiry');
    });
  });
});
