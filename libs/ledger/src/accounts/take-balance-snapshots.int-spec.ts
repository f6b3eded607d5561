import { type TestDatabase, createTestDatabase } from '@ledger/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LedgerFixture, ledgerFixture } from '../../test/ledger-fixture';
import { TakeBalanceSnapshotsUseCase } from './take-balance-snapshots.use-case';

const DAY_MS = 24 * 3600 * 1000;
const ACCOUNTS = 40;
const WORKERS = 4;

// Several workers run the daily snapshot job at the same time (each schedules it): every account's
// snapshot of a day is written once, by one of them, with the same figures a lone run writes.
describe('balance snapshots taken by racing workers', () => {
  let test: TestDatabase;
  let ledger: LedgerFixture;
  let tenantId: string;
  const now = Date.now();

  beforeAll(async () => {
    test = await createTestDatabase(12);
    ledger = await ledgerFixture(test.database);
    tenantId = await ledger.tenant();
    await ledger.account(tenantId, { code: 'equity', currency: 'USD', normalBalance: 'credit', allowNegative: true });
    for (let index = 0; index < ACCOUNTS; index++) {
      await ledger.account(tenantId, { code: `wallet:${index}`, currency: 'USD', normalBalance: 'credit' });
      const effectiveAt = new Date(now - (1 + (index % 20)) * DAY_MS);
      await ledger.transfer(tenantId, 'equity', `wallet:${index}`, BigInt(100 + index), { effectiveAt });
    }
  });
  afterAll(async () => {
    await ledger?.close();
    await test?.drop();
  });

  it('writes each snapshot once, whoever wins, with the figures of its entries', async () => {
    const job = ledger.get(TakeBalanceSnapshotsUseCase);
    const later = new Date(now + 40 * DAY_MS);
    const results = await Promise.all(Array.from({ length: WORKERS }, () => job.execute(later)));
    const written = results.reduce((sum, result) => sum + result.snapshots, 0);
    const rows = await test.database.sql.query<{ account_id: string; as_of: Date; credits: string; n: number }>(
      `SELECT account_id, as_of, posted_credits::text AS credits,
              count(*) OVER (PARTITION BY account_id, as_of)::int AS n
         FROM balance_snapshots WHERE tenant_id = $1`,
      [tenantId],
    );
    // Every wallet and the equity account: one row each, and the runs together report exactly those.
    expect(rows).toHaveLength(ACCOUNTS + 1);
    expect(rows.every((row) => row.n === 1)).toBe(true);
    expect(written).toBe(ACCOUNTS + 1);
    expect(new Set(results.map((result) => result.asOf)).size).toBe(1);
    const wallets = await test.database.sql.query<{ code: string; credits: string }>(
      `SELECT a.code, b.posted_credits::text AS credits FROM balance_snapshots b
         JOIN accounts a ON a.tenant_id = b.tenant_id AND a.id = b.account_id
        WHERE b.tenant_id = $1 AND a.code LIKE 'wallet:%'`,
      [tenantId],
    );
    for (const wallet of wallets) expect(wallet.credits).toBe(String(100 + Number(wallet.code.split(':')[1])));
    // A second round finds nothing left to write.
    const again = await Promise.all(Array.from({ length: WORKERS }, () => job.execute(later)));
    expect(again.map((result) => result.snapshots)).toEqual(Array(WORKERS).fill(0));
  });
});
