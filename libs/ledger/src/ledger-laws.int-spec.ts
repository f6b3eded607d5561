import { type TestDatabase, createTestDatabase } from '@ledger/db';
import { newId } from '@ledger/ids';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerFixture } from '../test/ledger-fixture';
import { type SqlStatement, cashAndSalesTenant, sqlRefusal } from '../test/sql-laws';

// The database itself enforces the ledger's laws: these statements bypass the application entirely.
describe('ledger laws in PostgreSQL', () => {
  let test: TestDatabase;
  let tenantId: string;
  let cashId: string;
  let salesId: string;
  let postedId: string;

  beforeAll(async () => {
    test = await createTestDatabase(4);
    ({ tenantId, cashId, salesId, postedId } = await cashAndSalesTenant(await ledgerFixture(test.database)));
  });
  afterAll(async () => {
    await test.drop();
  });

  /** The SQLSTATE the statements were refused with, or undefined. */
  async function refusedWith(...statements: SqlStatement[]): Promise<string | undefined> {
    return (await sqlRefusal(test.database, statements))?.code;
  }

  const sqlState = (script: string, params: unknown[] = []) => refusedWith([script, params]);

  const transactionRow = (id: string, tenant = tenantId): SqlStatement => [
    `INSERT INTO transactions (tenant_id, id, status, content_hash, effective_at, actor)
       VALUES ($1, $2, 'posted', $3, now(), 'test')`,
    [tenant, id, Buffer.alloc(32)],
  ];

  const entrySql = `INSERT INTO entries (tenant_id, transaction_id, leg, account_id, direction, amount_minor, currency,
                                         account_version, posted_balance_after, effective_at)
                    VALUES ($1, $2, 0, $3, 'debit', $4, 'USD', 1000, 0, now()),
                            ($1, $2, 1, $5, 'credit', $6, 'USD', 1000, 0, now())`;

  it('refuses entries that do not sum to zero', async () => {
    const id = newId();
    const code = await refusedWith(transactionRow(id), [entrySql, [tenantId, id, cashId, 100n, salesId, 99n]]);
    expect(code).toBe('LG001');
  });

  it('refuses a transaction with no entries at commit', async () => {
    const code = await refusedWith(transactionRow(newId()));
    expect(code).toBe('LG001');
  });

  it('refuses, at commit, a transaction whose entries do not start at leg 0 (its legs are 0..n-1)', async () => {
    const id = newId();
    const code = await refusedWith(transactionRow(id), [
      entrySql.replace(', 0, $3', ', 2, $3'),
      [tenantId, id, cashId, 100n, salesId, 100n],
    ]);
    expect(code).toBe('LG001');
  });

  it('refuses, at commit, a transaction that is not linked into the journal', async () => {
    const id = newId();
    const code = await refusedWith(transactionRow(id), [entrySql, [tenantId, id, cashId, 100n, salesId, 100n]]);
    expect(code).toBe('LG003');
  });

  it('refuses zero and negative amounts', async () => {
    const id = newId();
    const code = await refusedWith(transactionRow(id), [entrySql, [tenantId, id, cashId, -5n, salesId, -5n]]);
    expect(code).toBe('23514');
  });

  it('refuses an entry in a currency other than its account', async () => {
    const id = newId();
    const code = await refusedWith(transactionRow(id), [
      entrySql.replaceAll("'USD'", "'EUR'"),
      [tenantId, id, cashId, 100n, salesId, 100n],
    ]);
    expect(code).toBe('23503');
  });

  it('makes entries and transactions append-only: UPDATE, DELETE and TRUNCATE raise', async () => {
    expect(
      await sqlState('UPDATE entries SET amount_minor = amount_minor + 1 WHERE transaction_id = $1', [postedId]),
    ).toBe('LG002');
    expect(await sqlState('DELETE FROM entries WHERE transaction_id = $1', [postedId])).toBe('LG002');
    expect(await sqlState('TRUNCATE entries CASCADE')).toBe('LG002');
    expect(await sqlState(`UPDATE transactions SET description = 'edited' WHERE id = $1`, [postedId])).toBe('LG002');
    expect(await sqlState('DELETE FROM transactions WHERE id = $1', [postedId])).toBe('LG002');
    expect(await sqlState('TRUNCATE transactions CASCADE')).toBe('LG002');
    const rows = await test.database.sql.query<{ n: bigint }>(
      'SELECT count(*)::int8 AS n FROM entries WHERE transaction_id = $1',
      [postedId],
    );
    expect(rows[0]!.n).toBe(2n);
  });

  it('keeps a non-negative account at or above zero whatever is written to it', async () => {
    expect(await sqlState('UPDATE accounts SET posted_credits = posted_credits + 501 WHERE id = $1', [cashId])).toBe(
      '23514',
    );
    expect(await sqlState('UPDATE accounts SET pending_credits = 501 WHERE id = $1', [cashId])).toBe('23514');
    expect(
      await sqlState('UPDATE accounts SET posted_credits = posted_credits + 500 WHERE id = $1', [cashId]),
    ).toBeUndefined();
  });

  it('refuses a key without tenant_id: the same account id in another tenant is another account', async () => {
    const otherTenant = newId();
    await test.database.sql.query('INSERT INTO tenants (id, name) VALUES ($1, $2)', [otherTenant, 'other']);
    const id = newId();
    const code = await refusedWith(transactionRow(id, otherTenant), [
      entrySql,
      [otherTenant, id, cashId, 100n, salesId, 100n],
    ]);
    expect(code).toBe('23503');
  });
});
