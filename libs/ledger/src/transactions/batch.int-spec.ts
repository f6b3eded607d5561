import { type TestDatabase, createTestDatabase } from '@ledger/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LedgerFixture, ledgerFixture, transferBody as pay } from '../../test/ledger-fixture';

describe('batches', () => {
  let test: TestDatabase;
  let ledger: LedgerFixture;
  let tenantId: string;

  beforeAll(async () => {
    test = await createTestDatabase(10);
    ledger = await ledgerFixture(test.database);
    tenantId = await ledger.tenant();
    await ledger.account(tenantId, { code: 'equity', currency: 'USD', normalBalance: 'credit', allowNegative: true });
    await ledger.account(tenantId, { code: 'wallet', currency: 'USD', normalBalance: 'credit' });
    await ledger.account(tenantId, { code: 'shop', currency: 'USD', normalBalance: 'credit' });
  });
  afterAll(async () => {
    await ledger.close();
    await test.drop();
  });

  const batch = (transactions: unknown[]) => ledger.batch(tenantId, transactions);
  const posted = async (account: string) => (await ledger.balances(tenantId, account)).posted;

  it('gives each item its own result; bad items leave no trace and do not stop the others', async () => {
    const { results } = await batch([
      pay('equity', 'wallet', '100', { externalRef: 'deposit-1' }),
      pay('wallet', 'shop', '500'), // more than the wallet holds after item 0
      { entries: [{ account: 'wallet' }] }, // malformed
      pay('wallet', 'nowhere', '1'), // unknown account
      pay('wallet', 'shop', '60'), // sees item 0's deposit
      pay('equity', 'wallet', '100', { externalRef: 'deposit-1' }), // same ref, same content, same batch
      pay('equity', 'wallet', '999', { externalRef: 'deposit-1' }), // same ref, other content
      pay('wallet', 'shop', '41'), // 40 left: refused
    ]);
    expect(results.map((result) => [result.index, result.status, result.error?.code])).toEqual([
      [0, 'created', undefined],
      [1, 'error', 'INSUFFICIENT_FUNDS'],
      [2, 'error', 'VALIDATION_FAILED'],
      [3, 'error', 'ACCOUNT_NOT_FOUND'],
      [4, 'created', undefined],
      [5, 'exists', undefined],
      [6, 'error', 'EXTERNAL_REF_CONFLICT'],
      [7, 'error', 'INSUFFICIENT_FUNDS'],
    ]);
    expect(results[5]!.transaction!.id).toBe(results[0]!.transaction!.id);
    expect(await posted('wallet')).toBe('40');
    expect(await posted('shop')).toBe('60');
    const rows = await test.database.sql.query<{ n: bigint }>(
      'SELECT count(*)::int8 AS n FROM transactions WHERE tenant_id = $1',
      [tenantId],
    );
    expect(rows[0]!.n).toBe(2n);
  });

  it('a second batch with the same external references answers exists for them', async () => {
    const { results } = await batch([
      pay('equity', 'wallet', '100', { externalRef: 'deposit-1' }),
      pay('equity', 'wallet', '7'),
    ]);
    expect(results.map((result) => result.status)).toEqual(['exists', 'created']);
    expect(await posted('wallet')).toBe('47');
  });

  it('writes 1000 items in one go, chained in the journal in order', async () => {
    const items = Array.from({ length: 1000 }, (_, index) => pay('equity', 'wallet', String(index + 1)));
    const { results } = await batch(items);
    expect(results.every((result) => result.status === 'created')).toBe(true);
    expect(await posted('wallet')).toBe(String(47 + (1000 * 1001) / 2));
    const seqs = results.map((result) => BigInt(result.transaction!.journal.seq));
    expect(new Set(results.map((result) => result.transaction!.journal.stripe)).size).toBe(1);
    for (let index = 1; index < seqs.length; index++) expect(seqs[index]).toBe(seqs[index - 1]! + 1n);
  });
});
