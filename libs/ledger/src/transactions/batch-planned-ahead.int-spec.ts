import { type TestDatabase, createTestDatabase } from '@ledger/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whileAccountHeld } from '../../test/account-lock-holder';
import { type LedgerFixture, ledgerFixture, transferBody as pay } from '../../test/ledger-fixture';
import { PostingRepository } from './posting.repository';

// A batch plans on its accounts as read before their locks, then sends the locks and its write
// together. Each case below holds one account's lock in another transaction while the batch reads it,
// moves the account there, and lets the batch go on: what the batch then writes must be what it would
// have written had it planned under the locks. The holding transaction's posting names no other
// account of the batch (see whileAccountHeld).
describe('a batch planned ahead of its locks', () => {
  let test: TestDatabase;
  let ledger: LedgerFixture;
  let tenantId: string;

  beforeAll(async () => {
    test = await createTestDatabase(10);
    ledger = await ledgerFixture(test.database);
    tenantId = await ledger.tenant();
    await ledger.account(tenantId, { code: 'equity', currency: 'USD', normalBalance: 'credit', allowNegative: true });
    await ledger.account(tenantId, { code: 'shop', currency: 'USD', normalBalance: 'credit' });
    await ledger.account(tenantId, { code: 'sink', currency: 'USD', normalBalance: 'credit' });
    await ledger.account(tenantId, { code: 'treasury', currency: 'USD', normalBalance: 'credit', allowNegative: true });
  });
  afterAll(async () => {
    await ledger.close();
    await test.drop();
  });

  const batch = (transactions: unknown[]) => ledger.batch(tenantId, transactions);
  const posted = async (account: string) => (await ledger.balances(tenantId, account)).posted;

  let wallets = 0;
  async function walletWith(amount: bigint): Promise<string> {
    const code = `wallet-${++wallets}`;
    await ledger.account(tenantId, { code, currency: 'USD', normalBalance: 'credit' });
    if (amount > 0n) await ledger.transfer(tenantId, 'equity', code, amount);
    return code;
  }

  /** `start` while another transaction holds `account`'s lock and runs `meanwhile` (see whileAccountHeld). */
  const whileHeld = <T>(account: string, start: () => Promise<T>, meanwhile: () => Promise<unknown>) =>
    whileAccountHeld(test.database, {
      lockAccount: () => ledger.get(PostingRepository).lockForPosting(tenantId, [account]),
      start,
      meanwhile,
    });

  /**
   * The account's entries in version order: versions without gaps, each posted balance after the sum of
   * the posted entries so far (a hold's entry reserves, it does not move the posted balance).
   */
  async function expectUnbrokenChain(account: string) {
    const rows = await test.database.sql.query<{
      account_version: bigint;
      posted_balance_after: bigint;
      signed: bigint;
    }>(
      `SELECT e.account_version, e.posted_balance_after,
              CASE WHEN e.pending THEN 0 WHEN e.direction = 'credit' THEN e.amount_minor ELSE -e.amount_minor END
                AS signed
         FROM entries e JOIN accounts a ON a.tenant_id = e.tenant_id AND a.id = e.account_id
        WHERE e.tenant_id = $1 AND a.code = $2 ORDER BY e.account_version`,
      [tenantId, account],
    );
    let running = 0n;
    rows.forEach((row, index) => {
      running += row.signed;
      expect([row.account_version, row.posted_balance_after]).toEqual([BigInt(index + 1), running]);
    });
    expect(String(running)).toBe(await posted(account));
  }

  it('numbers entries from the accounts as locked when another posting moved them meanwhile', async () => {
    const wallet = await walletWith(100n);
    const { results } = await whileHeld(
      wallet,
      () => batch([pay(wallet, 'shop', '30'), pay(wallet, 'shop', '20')]),
      () => ledger.transfer(tenantId, 'equity', wallet, 5n),
    );
    expect(results.map((result) => result.status)).toEqual(['created', 'created']);
    expect(await posted(wallet)).toBe('55');
    await expectUnbrokenChain(wallet);
    await expectUnbrokenChain('shop');
  });

  it('plans again under the locks when an item would now take the account below zero on the way', async () => {
    // Read: 100, so paying out 80 then receiving 80 passes. Locked: 50, where the payout is refused
    // even though the batch as a whole would leave 50.
    const wallet = await walletWith(100n);
    const { results } = await whileHeld(
      wallet,
      () => batch([pay(wallet, 'shop', '80'), pay('treasury', wallet, '80')]),
      () => ledger.transfer(tenantId, wallet, 'sink', 50n),
    );
    expect(results.map((result) => [result.status, result.error?.code])).toEqual([
      ['error', 'INSUFFICIENT_FUNDS'],
      ['created', undefined],
    ]);
    expect(await posted(wallet)).toBe('130');
    await expectUnbrokenChain(wallet);
  });

  it('plans again under the locks when the whole batch no longer fits, refusing only what does not', async () => {
    const wallet = await walletWith(100n);
    const { results } = await whileHeld(
      wallet,
      () => batch([pay(wallet, 'shop', '40'), pay(wallet, 'shop', '50')]),
      () => ledger.transfer(tenantId, wallet, 'sink', 30n),
    );
    expect(results.map((result) => [result.status, result.error?.code])).toEqual([
      ['created', undefined],
      ['error', 'INSUFFICIENT_FUNDS'],
    ]);
    expect(await posted(wallet)).toBe('30');
    await expectUnbrokenChain(wallet);
  });

  it('plans again under the locks when the read refused an item that the accounts as locked allow', async () => {
    const wallet = await walletWith(0n);
    const { results } = await whileHeld(
      wallet,
      () => batch([pay(wallet, 'shop', '30'), pay('treasury', 'shop', '5')]),
      () => ledger.transfer(tenantId, 'equity', wallet, 50n),
    );
    expect(results.map((result) => result.status)).toEqual(['created', 'created']);
    expect(await posted(wallet)).toBe('20');
    await expectUnbrokenChain(wallet);
  });

  it('keeps balances non-negative and chains unbroken under racing batches, holds and single postings', async () => {
    const codes = await Promise.all(Array.from({ length: 6 }, () => walletWith(200n)));
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    const batches = Array.from({ length: 12 }, (_, round) =>
      batch(
        Array.from({ length: 20 }, (_, index) => {
          const from = codes[(round + index) % codes.length]!;
          const to = codes[(round + index * 5 + 1) % codes.length]!;
          if (from === to) return pay('equity', to, '3');
          const transfer = pay(from, to, String(7 + ((round * index) % 40)));
          return index % 4 === 3 ? { ...transfer, pending: { expiresAt: inAnHour } } : transfer;
        }),
      ),
    );
    const singles = Array.from({ length: 30 }, (_, index) =>
      ledger.transfer(tenantId, codes[index % codes.length]!, 'shop', 9n).catch(() => undefined),
    );
    await Promise.all([...batches, ...singles]);
    const refused = (await Promise.all(batches)).flatMap(({ results }) => results.filter((r) => r.status === 'error'));
    expect(refused.length).toBeGreaterThan(0);
    expect(new Set(refused.map((result) => result.error?.code))).toEqual(new Set(['INSUFFICIENT_FUNDS']));
    for (const code of codes) {
      const { available } = await ledger.balances(tenantId, code);
      expect(BigInt(available)).toBeGreaterThanOrEqual(0n);
      await expectUnbrokenChain(code);
    }
  });
});
