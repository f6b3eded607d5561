import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import {
  type TestTenant,
  createAccount,
  createApiKey,
  mustPost,
  postWithKey,
  seededTenant,
  sqlRows,
  transfer,
} from './support/ledger-fixtures';
import {
  bankCsv,
  createSource,
  financeKey,
  runReconciliation,
  statementDay,
  uploadStatement,
} from './support/reconciliation-fixtures';

// The append-only tables are found, not listed: every table with a row trigger on UPDATE or DELETE
// whose function raises LG002. Each must also refuse TRUNCATE (a statement trigger), and UPDATE,
// DELETE and TRUNCATE are each tried on real rows and must be refused with LG002.

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

interface GuardRow {
  table: string;
  truncate_guarded: boolean;
}

// tgtype bits (pg_trigger.h): 1 row, 8 delete, 16 update, 32 truncate.
const APPEND_ONLY_TABLES = `
SELECT c.relname AS table,
       bool_or((t.tgtype & 32) <> 0 AND p.prosrc LIKE '%LG002%') AS truncate_guarded
  FROM pg_trigger t
  JOIN pg_class c ON c.oid = t.tgrelid
  JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema()
  JOIN pg_proc p ON p.oid = t.tgfoid
 WHERE NOT t.tgisinternal AND t.tgenabled <> 'D'
 GROUP BY c.relname
HAVING bool_or((t.tgtype & 1) = 1 AND (t.tgtype & (8 | 16)) <> 0 AND p.prosrc LIKE '%LG002%')
 ORDER BY c.relname`;

/** A quote used by a conversion: a row in fx_quotes (changed once, then never) and in fx_conversions. */
async function seedConversion(tenant: TestTenant): Promise<void> {
  await createAccount(api, tenant.adminKey, { code: 'liabilities:eur', currency: 'EUR', normalBalance: 'credit' });
  const quote = await postWithKey(api, tenant.posterKey, '/v1/conversions/quotes', {
    from: { currency: 'USD' },
    to: { currency: 'EUR' },
    rate: '0.92',
    ttlSeconds: 60,
  });
  const conversion = await postWithKey(api, tenant.posterKey, '/v1/conversions', {
    from: { account: 'assets:bank', amount: '100', currency: 'USD' },
    to: { account: 'liabilities:eur', currency: 'EUR' },
    quoteId: quote.body.id,
  });
  if (conversion.status !== 201) throw new Error(`conversion failed: ${JSON.stringify(conversion.body)}`);
}

/** A payment order (its reserve step); no worker runs here, so its connector is never called. */
async function seedPaymentOrder(tenant: TestTenant): Promise<void> {
  const connector = await postWithKey(api, tenant.adminKey, '/v1/connectors', {
    name: 'provider',
    kind: 'http',
    baseUrl: 'http://127.0.0.1:9',
    secret: 'provider-secret',
    webhookSecret: 'provider-webhook-secret',
    clearingAccount: 'assets:bank',
  });
  if (connector.status !== 201) throw new Error(`connector failed: ${JSON.stringify(connector.body)}`);
  const order = await postWithKey(api, tenant.posterKey, '/v1/payment-orders', {
    connector: 'provider',
    direction: 'payout',
    sourceAccount: 'equity:seed',
    amount: '10',
    currency: 'USD',
    counterparty: { name: 'A customer' },
  });
  if (order.status !== 202) throw new Error(`payment order failed: ${JSON.stringify(order.body)}`);
}

/** A row in every append-only table, made the ordinary way (the API), except the match event. */
async function seedEveryTable(): Promise<string> {
  const tenant = await seededTenant(api, 'append only');
  await createAccount(api, tenant.adminKey, {
    code: 'assets:bank',
    currency: 'USD',
    normalBalance: 'debit',
    allowNegative: true,
  });
  await mustPost(api, tenant.posterKey, transfer('assets:bank', 'equity:seed', '1200'));
  await seedConversion(tenant);
  await seedPaymentOrder(tenant);
  const key = await financeKey(api, tenant);
  await createSource(api, key, { name: 'bank', account: 'assets:bank', format: 'csv:bank' });
  const day = statementDay(-1);
  await uploadStatement(api, key, 'bank', 'bank.csv', bankCsv([`${day},${day},Unbooked,3.00,USD,NONE,Acme`]));
  await runReconciliation(api, key); // a missing_in_ledger ticket and its history
  const auditor = await createApiKey(api, tenant.adminKey, ['auditor']);
  const proof = await api.request('POST', '/v1/proofs/balances', {
    key: auditor,
    idempotencyKey: randomUUID(),
    body: {},
  });
  if (proof.status !== 201) throw new Error(`proof not issued: ${proof.status} ${JSON.stringify(proof.body)}`);
  await sqlRows(
    api,
    `INSERT INTO match_events (tenant_id, id, group_id, actor, action, note)
     VALUES ($1, $2, $3, 'test', 'created', 'x')`,
    [tenant.tenantId, randomUUID(), randomUUID()],
  );
  return tenant.tenantId;
}

async function sqlState(text: string): Promise<string> {
  return sqlRows(api, text).then(
    () => 'succeeded',
    (error: { code?: string }) => error.code ?? 'no code',
  );
}

describe('append-only tables', () => {
  it('refuse TRUNCATE, UPDATE and DELETE, every one of them', async () => {
    const tenantId = await seedEveryTable();
    const tables = await sqlRows<GuardRow>(api, APPEND_ONLY_TABLES);
    expect(tables.map((row) => row.table)).toEqual(
      expect.arrayContaining([
        'audit_log',
        'discrepancy_events',
        'entries',
        'fx_conversions',
        'fx_quotes',
        'match_events',
        'payment_order_steps',
        'transactions',
      ]),
    );
    expect(tables.filter((row) => !row.truncate_guarded).map((row) => row.table)).toEqual([]);
    for (const { table } of tables) {
      const [rows] = await sqlRows<{ n: string }>(
        api,
        `SELECT count(*)::text AS n FROM ${table} WHERE tenant_id = $1`,
        [tenantId],
      );
      expect(Number(rows!.n), `seed a row of ${table}`).toBeGreaterThan(0);
      expect(await sqlState(`UPDATE ${table} SET tenant_id = tenant_id`), `UPDATE ${table}`).toBe('LG002');
      expect(await sqlState(`DELETE FROM ${table}`), `DELETE ${table}`).toBe('LG002');
      // CASCADE: a table others reference is otherwise refused for its foreign keys before any trigger.
      expect(await sqlState(`TRUNCATE ${table} CASCADE`), `TRUNCATE ${table}`).toBe('LG002');
    }
  });
});
