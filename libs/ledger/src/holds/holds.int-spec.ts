import { type TestDatabase, createTestDatabase } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LedgerFixture, ledgerFixture } from '../../test/ledger-fixture';
import { ExpireHoldsUseCase } from './expire-holds.use-case';
import { ResolveHoldUseCase } from './resolve-hold.use-case';

const inOneHour = () => new Date(Date.now() + 3600_000);

describe('holds against PostgreSQL with concurrent clients', () => {
  let test: TestDatabase;
  let ledger: LedgerFixture;

  beforeAll(async () => {
    test = await createTestDatabase(30);
    ledger = await ledgerFixture(test.database);
  });
  afterAll(async () => {
    await ledger.close();
    await test.drop();
  });

  async function walletWith(amount: bigint) {
    const tenantId = await ledger.tenant();
    await ledger.account(tenantId, { code: 'equity', currency: 'USD', normalBalance: 'credit', allowNegative: true });
    await ledger.account(tenantId, { code: 'wallet', currency: 'USD', normalBalance: 'credit' });
    await ledger.account(tenantId, { code: 'merchant', currency: 'USD', normalBalance: 'credit' });
    await ledger.transfer(tenantId, 'equity', 'wallet', amount);
    return tenantId;
  }

  const codeOf = (reason: unknown) => (reason instanceof DomainError ? reason.code : String(reason));

  it('50 concurrent holds never reserve more than the account has', async () => {
    const tenantId = await walletWith(1_000n);
    const settled = await Promise.allSettled(
      Array.from({ length: 50 }, () =>
        ledger.transfer(tenantId, 'wallet', 'merchant', 30n, { pendingUntil: inOneHour() }),
      ),
    );
    const held = settled.filter((result) => result.status === 'fulfilled').length;
    const refused = settled
      .filter((result) => result.status === 'rejected')
      .map((result) => codeOf((result as PromiseRejectedResult).reason));
    expect(held).toBe(33);
    expect(new Set(refused)).toEqual(new Set(['INSUFFICIENT_FUNDS']));
    expect(await ledger.balances(tenantId, 'wallet')).toEqual({ posted: '1000', pending: '990', available: '10' });
    // A hold does not move money: the merchant has nothing posted yet.
    expect((await ledger.balances(tenantId, 'merchant')).posted).toBe('0');
  });

  it(
    'post, void and partial post racing on one hold: exactly ' +
      'one resolves it, the others get HOLD_ALREADY_RESOLVED',
    async () => {
      for (let round = 0; round < 5; round++) {
        const tenantId = await walletWith(100n);
        const hold = (await ledger.transfer(tenantId, 'wallet', 'merchant', 60n, { pendingUntil: inOneHour() }))
          .transaction;
        const resolve = ledger.get(ResolveHoldUseCase);
        const settled = await Promise.allSettled([
          resolve.execute({ tenantId, actor: 'test', holdId: hold.id, action: 'post' }),
          resolve.execute({ tenantId, actor: 'test', holdId: hold.id, action: 'void' }),
          resolve.execute({ tenantId, actor: 'test', holdId: hold.id, action: 'post', amountMinor: 10n }),
          resolve.execute({ tenantId, actor: 'test', holdId: hold.id, action: 'void' }),
        ]);
        expect(settled.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
        for (const result of settled) {
          if (result.status === 'rejected') expect(codeOf(result.reason)).toBe('HOLD_ALREADY_RESOLVED');
        }
        await expectResolvedOnce(tenantId, hold.id);
      }
    },
  );

  it('the expiry job racing clients voiding an expired hold: exactly one resolution', async () => {
    for (let round = 0; round < 5; round++) {
      const tenantId = await walletWith(100n);
      const hold = (
        await ledger.transfer(tenantId, 'wallet', 'merchant', 60n, { pendingUntil: new Date(Date.now() + 300) })
      ).transaction;
      await new Promise((resolve) => setTimeout(resolve, 350));
      const resolve = ledger.get(ResolveHoldUseCase);
      const settled = await Promise.allSettled([
        ledger.get(ExpireHoldsUseCase).execute(),
        resolve.execute({ tenantId, actor: 'test', holdId: hold.id, action: 'void' }),
        resolve.execute({ tenantId, actor: 'test', holdId: hold.id, action: 'void' }),
        resolve.execute({ tenantId, actor: 'test', holdId: hold.id, action: 'post' }),
      ]);
      for (const result of settled.slice(1)) {
        if (result.status === 'rejected')
          expect(['HOLD_ALREADY_RESOLVED', 'HOLD_EXPIRED']).toContain(codeOf(result.reason));
      }
      expect(settled[3]!.status).toBe('rejected');
      await expectResolvedOnce(tenantId, hold.id);
    }
  });

  async function expectResolvedOnce(tenantId: string, holdId: string) {
    const rows = await test.database.sql.query<{ n: bigint }>(
      'SELECT count(*)::int8 AS n FROM transactions WHERE tenant_id = $1 AND hold_id = $2',
      [tenantId, holdId],
    );
    expect(rows[0]!.n).toBe(1n);
    expect((await ledger.balances(tenantId, 'wallet')).pending).toBe('0');
  }

  it('partial capture posts the captured part and releases the rest', async () => {
    const tenantId = await walletWith(100n);
    const hold = (await ledger.transfer(tenantId, 'wallet', 'merchant', 80n, { pendingUntil: inOneHour() }))
      .transaction;
    expect(await ledger.balances(tenantId, 'wallet')).toEqual({ posted: '100', pending: '80', available: '20' });
    const capture = await ledger
      .get(ResolveHoldUseCase)
      .execute({ tenantId, actor: 'test', holdId: hold.id, action: 'post', amountMinor: 50n });
    expect(capture.status).toBe('posted');
    expect(capture.holdId).toBe(hold.id);
    expect(capture.entries.map((entry) => entry.amount)).toEqual(['50', '50']);
    expect(await ledger.balances(tenantId, 'wallet')).toEqual({ posted: '50', pending: '0', available: '50' });
    expect(await ledger.balances(tenantId, 'merchant')).toEqual({ posted: '50', pending: '0', available: '50' });
  });

  it('refuses capturing more than held, and leaves the hold open', async () => {
    const tenantId = await walletWith(100n);
    const hold = (await ledger.transfer(tenantId, 'wallet', 'merchant', 40n, { pendingUntil: inOneHour() }))
      .transaction;
    await expect(
      ledger
        .get(ResolveHoldUseCase)
        .execute({ tenantId, actor: 'test', holdId: hold.id, action: 'post', amountMinor: 41n }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    const voided = await ledger
      .get(ResolveHoldUseCase)
      .execute({ tenantId, actor: 'test', holdId: hold.id, action: 'void' });
    expect(voided).toMatchObject({ status: 'voided', holdId: hold.id, entries: [] });
    expect(await ledger.balances(tenantId, 'wallet')).toEqual({ posted: '100', pending: '0', available: '100' });
  });

  it('the worker expires holds past expiresAt and leaves the others', async () => {
    const tenantId = await walletWith(100n);
    const soon = (
      await ledger.transfer(tenantId, 'wallet', 'merchant', 10n, { pendingUntil: new Date(Date.now() + 500) })
    ).transaction;
    const later = (await ledger.transfer(tenantId, 'wallet', 'merchant', 20n, { pendingUntil: inOneHour() }))
      .transaction;
    await new Promise((resolve) => setTimeout(resolve, 600));
    const result = await ledger.get(ExpireHoldsUseCase).execute();
    expect(result.expired).toBeGreaterThanOrEqual(1);
    const rows = await test.database.sql.query<{ hold_id: string; status: string }>(
      'SELECT hold_id, status FROM transactions WHERE tenant_id = $1 AND hold_id IS NOT NULL',
      [tenantId],
    );
    expect(rows).toEqual([{ hold_id: soon.id, status: 'expired' }]);
    expect(await ledger.balances(tenantId, 'wallet')).toEqual({ posted: '100', pending: '20', available: '80' });
    expect(later.status).toBe('pending');
  });

  it('resolving something that is not a hold is refused with a reason', async () => {
    const tenantId = await walletWith(100n);
    const posted = (await ledger.transfer(tenantId, 'wallet', 'merchant', 1n)).transaction;
    await expect(
      ledger.get(ResolveHoldUseCase).execute({ tenantId, actor: 'test', holdId: posted.id, action: 'void' }),
    ).rejects.toMatchObject({ code: 'NOT_A_HOLD' });
    await expect(
      ledger
        .get(ResolveHoldUseCase)
        .execute({ tenantId, actor: 'test', holdId: '01a2292a-0000-7000-8000-000000000000', action: 'void' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
