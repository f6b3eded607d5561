import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { createAccount, isoFromNow, mustPost, seededTenant, transfer } from './support/ledger-fixtures';
import {
  bankCsv,
  createSource,
  financeKey,
  runReconciliation,
  statementDay,
  uploadStatement,
} from './support/reconciliation-fixtures';

// `npm start` runs on PGlite, one connection for everything: a request that opens a transaction and
// then queries beside it would wait for itself forever. The paths a demo user takes, end to end.
let api: ApiHarness;
beforeAll(async () => {
  api = await startApi({ embedded: true });
});
afterAll(async () => {
  await api?.close();
});

describe('the API on the embedded database', () => {
  it('posts, holds, imports, reconciles (twice) and explains, on the single connection', async () => {
    const tenant = await seededTenant(api, 'embedded');
    await createAccount(api, tenant.adminKey, {
      code: 'assets:bank',
      currency: 'USD',
      normalBalance: 'debit',
      allowNegative: true,
    });
    const posted = await mustPost(
      api,
      tenant.posterKey,
      transfer('assets:bank', 'equity:seed', '2500', 'USD', { externalRef: 'EMB-1' }),
    );
    await mustPost(api, tenant.posterKey, {
      ...transfer('equity:seed', 'assets:bank', '100'),
      pending: { expiresAt: isoFromNow(60_000) },
    });
    const key = await financeKey(api, tenant);
    await createSource(api, key, { name: 'bank', account: 'assets:bank', format: 'csv:bank' });
    await uploadStatement(
      api,
      key,
      'bank',
      'bank.csv',
      bankCsv([`${statementDay(0)},${statementDay(0)},Invoice,25.00,USD,EMB-1,Acme`]),
    );
    const first = await runReconciliation(api, key);
    expect(first.stats.matched.reference).toBe(1);
    const second = await runReconciliation(api, key);
    expect(second.stats).toMatchObject({ opened: 0, reopened: 0 });
    const [match] = (await api.request('GET', `/v1/matches?transaction=${posted.id}`, { key })).body.data;
    expect(match).toMatchObject({ rule: 'reference', entries: [{ transactionId: posted.id }] });
  });
});
