import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itWithStatementSamples } from '../libs/imports/test/statement-samples';
import { type ApiHarness, startApi } from './support/api-harness';
import {
  type TestTenant,
  createAccount,
  isoFromNow,
  mustPost,
  seededTenant,
  sqlRows,
  transfer,
} from './support/ledger-fixtures';
import {
  createSource,
  executeQueuedRuns,
  financeKey,
  listTickets,
  routeOwner,
  runReconciliation,
  uploadSample,
  waitForRun,
} from './support/reconciliation-fixtures';

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

const run = (key: string) => runReconciliation(api, key);
const tickets = (key: string, query = '') => listTickets(api, key, query);

/** What a person with psql could do to the cached balances (accounts are not append-only). */
const corrupt = (tenant: TestTenant, code: string, delta: number) =>
  sqlRows(
    api,
    'UPDATE accounts SET posted_credits = posted_credits + $3 WHERE tenant_id = $1 AND code = $2 RETURNING 1',
    [tenant.tenantId, code, delta],
  );

describe('reconciliation runs and tickets', () => {
  it('a healthy ledger gives a run with no findings', async () => {
    const tenant = await seededTenant(api, 'healthy');
    await createAccount(api, tenant.adminKey, { code: 'wallet', currency: 'USD', normalBalance: 'credit' });
    await mustPost(api, tenant.posterKey, transfer('equity:seed', 'wallet', '100'));
    const key = await financeKey(api, tenant);
    const result = await run(key);
    expect(result).toMatchObject({ status: 'completed', trigger: 'api', stats: { findings: 0, opened: 0 } });
    const durations = result.stats.durationsMs;
    expect(Object.keys(durations).sort()).toEqual(['checks', 'matching', 'statistics', 'tickets']);
    expect(Object.keys(durations.checks)).toEqual(expect.arrayContaining(['zero_sum', 'cached_balances', 'journal']));
    expect(
      [durations.statistics, durations.matching, durations.tickets, ...Object.values(durations.checks)].every(
        (ms) => Number.isInteger(ms) && ms >= 0,
      ),
    ).toBe(true);
    expect((await api.request('GET', `/v1/reconciliation/runs/${result.id}`, { key })).body.id).toBe(result.id);
    expect(await tickets(key)).toEqual([]);
  });

  it('one ticket per cause, owned, never doubled, resolved when the cause goes, reopened when it returns', async () => {
    const tenant = await seededTenant(api, 'broken books');
    await createAccount(api, tenant.adminKey, {
      code: 'liabilities:wallet',
      currency: 'USD',
      normalBalance: 'credit',
      allowNegative: true,
    });
    await mustPost(api, tenant.posterKey, transfer('equity:seed', 'liabilities:wallet', '500'));
    const key = await financeKey(api, tenant);
    await routeOwner(api, key, { priority: 10, accountPrefix: 'liabilities:', owner: 'ledger-ops' });
    await routeOwner(api, key, { priority: 99, owner: 'finance-team' });
    await corrupt(tenant, 'liabilities:wallet', 7);

    const first = await run(key);
    const opened = await tickets(key, '&status=open');
    const cached = opened.filter((ticket) => ticket.fingerprint === 'cached_balances:liabilities:wallet');
    expect(cached).toHaveLength(1);
    expect(cached[0]).toMatchObject({
      kind: 'invariant_violation',
      severity: 'critical',
      owner: 'ledger-ops',
      amount: '7',
      currency: 'USD',
      accountCode: 'liabilities:wallet',
    });
    expect(opened.some((ticket) => ticket.fingerprint === 'trial_balance:USD')).toBe(false);
    expect(first.stats.opened).toBe(opened.length);

    const second = await run(key);
    expect(second.stats).toMatchObject({ opened: 0, reopened: 0, resolved: 0 });
    expect(await tickets(key)).toHaveLength(opened.length);

    await corrupt(tenant, 'liabilities:wallet', -7);
    const third = await run(key);
    expect(third.stats.resolved).toBe(opened.length);
    const resolved = (await api.request('GET', `/v1/discrepancies/${cached[0].id}`, { key })).body;
    expect(resolved.status).toBe('resolved');
    expect(resolved.history.map((event: any) => event.action)).toEqual(['opened', 'auto_resolved']);
    expect(resolved.history[1].note).toContain(third.id);

    await corrupt(tenant, 'liabilities:wallet', 7);
    const fourth = await run(key);
    expect(fourth.stats.reopened).toBeGreaterThanOrEqual(1);
    const reopened = (await api.request('GET', `/v1/discrepancies/${cached[0].id}`, { key })).body;
    expect(reopened.status).toBe('open');
    expect(reopened.history.at(-1).action).toBe('reopened');
  });

  it('an ignored invariant violation reopens when a run sees it again; an ignored stale hold does not', async () => {
    const tenant = await seededTenant(api, 'ignored');
    await createAccount(api, tenant.adminKey, {
      code: 'wallet',
      currency: 'USD',
      normalBalance: 'credit',
      allowNegative: true,
    });
    const hold = await mustPost(api, tenant.posterKey, {
      ...transfer('equity:seed', 'wallet', '40'),
      pending: { expiresAt: isoFromNow(60_000) },
    });
    await sqlRows(
      api,
      `UPDATE open_holds SET expires_at = now() - interval '1 hour' WHERE tenant_id = $1 AND hold_id = $2`,
      [tenant.tenantId, hold.id],
    );
    await corrupt(tenant, 'wallet', 5);
    const key = await financeKey(api, tenant);
    await run(key);
    const [broken] = await tickets(key, '&kind=invariant_violation');
    const [stale] = await tickets(key, '&kind=stale_hold');
    for (const ticket of [broken, stale]) {
      const ignored = await api.request('PATCH', `/v1/discrepancies/${ticket.id}`, {
        key,
        body: { status: 'ignored', note: 'known, leave it' },
      });
      expect(ignored.body.status).toBe('ignored');
    }
    const next = await run(key);
    expect(next.stats.reopened).toBe(1);
    const reopened = (await api.request('GET', `/v1/discrepancies/${broken.id}`, { key })).body;
    expect(reopened.status).toBe('open');
    expect(reopened.history.at(-1)).toMatchObject({ action: 'reopened', actor: 'reconciler' });
    expect(reopened.history.at(-1).note).toContain(next.id);
    const still = (await api.request('GET', `/v1/discrepancies/${stale.id}`, { key })).body;
    expect(still.status).toBe('ignored');
    expect(still.history.at(-1).action).toBe('ignored');
  });

  it('a person assigns, acknowledges, resolves with a note (none: refused); an auditor cannot', async () => {
    const tenant = await seededTenant(api, 'worked tickets');
    await createAccount(api, tenant.adminKey, {
      code: 'wallet',
      currency: 'USD',
      normalBalance: 'credit',
      allowNegative: true,
    });
    await corrupt(tenant, 'wallet', 3);
    const key = await financeKey(api, tenant);
    await run(key);
    const [ticket] = await tickets(key, '&kind=invariant_violation&owner=unassigned');
    expect(ticket).toBeDefined();
    const patch = (body: unknown, with_ = key) =>
      api.request('PATCH', `/v1/discrepancies/${ticket.id}`, { key: with_, body });
    expect((await patch({ owner: 'maria', status: 'acknowledged' })).body).toMatchObject({
      owner: 'maria',
      status: 'acknowledged',
    });
    const noNote = await patch({ status: 'resolved' });
    expect(noNote.status).toBe(400);
    const auditor = (
      await api.request('POST', '/v1/api-keys', {
        key: tenant.adminKey,
        idempotencyKey: randomUUID(),
        body: { name: 'audit', roles: ['auditor'] },
      })
    ).body.key;
    expect((await patch({ status: 'resolved', note: 'fixed' }, auditor)).status).toBe(403);
    const done = await patch({ status: 'resolved', note: 'restored the balance from entries' });
    expect(done.status).toBe(200);
    expect(done.body.history.map((event: any) => [event.action, event.note])).toEqual([
      ['opened', expect.any(String)],
      ['assigned', null],
      ['acknowledged', null],
      ['resolved', 'restored the balance from entries'],
    ]);
    expect(done.body.history[1].actor).toMatch(/^api-key:/);
    expect((await tickets(key, '&owner=maria&status=resolved')).map((found) => found.id)).toEqual([ticket.id]);
  });

  itWithStatementSamples(
    'tickets a hold that outlived its expiry, and a statement whose balances do not add up, routed by source',
    async () => {
      const tenant = await seededTenant(api, 'stale and broken');
      await createAccount(api, tenant.adminKey, { code: 'wallet', currency: 'USD', normalBalance: 'credit' });
      await createAccount(api, tenant.adminKey, { code: 'assets:bank:eur', currency: 'EUR', normalBalance: 'debit' });
      await mustPost(api, tenant.posterKey, transfer('equity:seed', 'wallet', '100'));
      const hold = await mustPost(api, tenant.posterKey, {
        ...transfer('wallet', 'equity:seed', '40'),
        pending: { expiresAt: isoFromNow(60_000) },
      });
      await sqlRows(
        api,
        `UPDATE open_holds SET expires_at = now() - interval '1 hour' WHERE tenant_id = $1 AND hold_id = $2`,
        [tenant.tenantId, hold.id],
      );
      const key = await financeKey(api, tenant);
      await createSource(api, key, { name: 'bank-eur', account: 'assets:bank:eur', format: 'camt053' });
      await routeOwner(api, key, { priority: 1, source: 'bank-eur', owner: 'treasury' });
      await uploadSample(api, key, 'bank-eur', 'camt/camt053.v2.minimal.xml');

      await run(key);
      const stale = await tickets(key, '&kind=stale_hold');
      expect(stale.map((ticket) => ticket.evidence.holdId)).toEqual([hold.id]);
      const continuity = await tickets(key, '&kind=balance_continuity');
      expect(continuity.length).toBeGreaterThan(0);
      for (const ticket of continuity)
        expect(ticket).toMatchObject({
          owner: 'treasury',
          source: 'bank-eur',
          accountCode: 'assets:bank:eur',
          severity: 'high',
        });
    },
  );

  it('`ledger reconcile` runs the same reconciliation from the command line', async () => {
    const tenant = await seededTenant(api, 'cli run');
    await createAccount(api, tenant.adminKey, { code: 'wallet', currency: 'USD', normalBalance: 'credit' });
    await mustPost(api, tenant.posterKey, transfer('equity:seed', 'wallet', '100'));
    await corrupt(tenant, 'wallet', 7);
    const cli = resolve(__dirname, '..', 'dist', 'apps', 'cli', 'src', 'main.js');
    const { stdout } = await promisify(execFile)(process.execPath, [cli, 'reconcile', '--tenant', tenant.tenantId], {
      env: { ...process.env, DATABASE_URL: api.db.url },
    });
    expect(stdout).toMatch(
      new RegExp(`^tenant ${tenant.tenantId}: run [0-9a-f-]{36} in \\d+ ms; .*tickets opened 1, `),
    );
    const key = await financeKey(api, tenant);
    const [run] = (await api.request('GET', '/v1/reconciliation/runs?limit=1', { key })).body.data;
    expect(run).toMatchObject({ trigger: 'cli', status: 'completed' });
  });

  it('a run whose process died (no heartbeat for the lease) is given up; a live one blocks the next', async () => {
    const tenant = await seededTenant(api, 'dead run');
    const key = await financeKey(api, tenant);
    const started = await run(key);
    const stuck = randomUUID();
    await sqlRows(
      api,
      `INSERT INTO reconciliation_runs (tenant_id, id, trigger, actor, status, heartbeat_at)
       VALUES ($1, $2, 'schedule', 'reconciler', 'running', now())`,
      [tenant.tenantId, stuck],
    );
    const refused = await api.request('POST', '/v1/reconciliation/runs', {
      key,
      idempotencyKey: randomUUID(),
      body: {},
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'RECONCILIATION_IN_PROGRESS', details: { runId: stuck } });
    await sqlRows(
      api,
      `UPDATE reconciliation_runs SET heartbeat_at = now() - interval '1 hour' WHERE tenant_id = $1 AND id = $2`,
      [tenant.tenantId, stuck],
    );
    const next = await run(key);
    expect(next.id).not.toBe(started.id);
    const dead = (await api.request('GET', `/v1/reconciliation/runs/${stuck}`, { key })).body;
    expect(dead).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/^abandoned: no sign of life since /),
    });
  });

  it('one run at a time per tenant: a concurrent start is refused with the run in the way, not doubled', async () => {
    const tenant = await seededTenant(api, 'concurrent runs');
    const key = await financeKey(api, tenant);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        api.request('POST', '/v1/reconciliation/runs', { key, idempotencyKey: randomUUID(), body: {} }),
      ),
    );
    // No worker here: the one run queued stays queued, and every other start meets it.
    const queued = answers.filter((answer) => answer.status === 202);
    expect(queued, JSON.stringify(answers.map((answer) => answer.body))).toHaveLength(1);
    for (const answer of answers.filter((other) => other.status !== 202)) {
      expect(answer.status).toBe(409);
      expect(answer.body.error).toMatchObject({
        code: 'RECONCILIATION_IN_PROGRESS',
        details: { runId: queued[0]!.body.id },
      });
    }
    await executeQueuedRuns(api);
    expect(await waitForRun(api, key, queued[0]!.body.id)).toMatchObject({ status: 'completed' });
  });
});
