import { type TestDatabase, createTestDatabase } from '@ledger/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LedgerFixture, ledgerFixture } from '../../test/ledger-fixture';
import { GetTransactionUseCase } from '../transactions/get-transaction.use-case';
import { ReverseTransactionUseCase } from './reverse-transaction.use-case';

describe('reversals', () => {
  let test: TestDatabase;
  let ledger: LedgerFixture;
  let tenantId: string;

  beforeAll(async () => {
    test = await createTestDatabase(20);
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

  const reverse = (id: string) => ledger.get(ReverseTransactionUseCase).execute({ tenantId, actor: 'test', id });
  const posted = async (account: string) => (await ledger.balances(tenantId, account)).posted;

  it('posts the mirror image, linked both ways', async () => {
    const deposit = (await ledger.transfer(tenantId, 'equity', 'wallet', 500n)).transaction;
    const reversal = await reverse(deposit.id);
    expect(reversal.reversesId).toBe(deposit.id);
    expect(reversal.entries.map((entry) => [entry.accountCode, entry.direction, entry.amount])).toEqual([
      ['equity', 'credit', '500'],
      ['wallet', 'debit', '500'],
    ]);
    expect(await posted('wallet')).toBe('0');
    const original = await ledger.get(GetTransactionUseCase).execute({ tenantId, id: deposit.id });
    expect(original.reversedById).toBe(reversal.id);
  });

  it('refuses a second reversal, also when both race', async () => {
    const deposit = (await ledger.transfer(tenantId, 'equity', 'wallet', 70n)).transaction;
    const settled = await Promise.allSettled(Array.from({ length: 8 }, () => reverse(deposit.id)));
    expect(settled.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of settled) {
      if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 'ALREADY_REVERSED' });
    }
  });

  it('refuses to reverse a reversal', async () => {
    const deposit = (await ledger.transfer(tenantId, 'equity', 'wallet', 5n)).transaction;
    const reversal = await reverse(deposit.id);
    await expect(reverse(reversal.id)).rejects.toMatchObject({ code: 'NOT_REVERSIBLE' });
  });

  it('respects account limits like any posting: a spent deposit cannot be reversed', async () => {
    const deposit = (await ledger.transfer(tenantId, 'equity', 'wallet', 100n)).transaction;
    await ledger.transfer(tenantId, 'wallet', 'shop', 60n);
    await expect(reverse(deposit.id)).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    const original = await ledger.get(GetTransactionUseCase).execute({ tenantId, id: deposit.id });
    expect(original.reversedById).toBeNull();
  });

  it('refuses to reverse a hold (void it instead)', async () => {
    await ledger.transfer(tenantId, 'equity', 'wallet', 10n);
    const hold = (
      await ledger.transfer(tenantId, 'wallet', 'shop', 10n, { pendingUntil: new Date(Date.now() + 60_000) })
    ).transaction;
    await expect(reverse(hold.id)).rejects.toMatchObject({ code: 'NOT_REVERSIBLE' });
  });
});
