import { type TestDatabase, createTestDatabase } from '@ledger/db';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LedgerFixture, ledgerFixture } from '../../test/ledger-fixture';
import { GetBalanceUseCase } from './get-balance.use-case';
import { TakeBalanceSnapshotsUseCase } from './take-balance-snapshots.use-case';

const DAY_MS = 24 * 3600 * 1000;

describe('point-in-time balances', () => {
  let test: TestDatabase;
  let ledger: LedgerFixture;
  let tenantId: string;
  const now = Date.now();

  beforeAll(async () => {
    test = await createTestDatabase(10);
    ledger = await ledgerFixture(test.database);
    tenantId = await ledger.tenant();
    await ledger.account(tenantId, { code: 'equity', currency: 'USD', normalBalance: 'credit', allowNegative: true });
    await ledger.account(tenantId, { code: 'wallet', currency: 'USD', normalBalance: 'credit', allowNegative: true });
    // Back-dated postings in random order over the last 29 days, in both directions.
    const random = fc.sample(
      fc.tuple(fc.integer({ min: 1, max: 29 * 24 * 60 }), fc.bigInt({ min: 1n, max: 10_000n }), fc.boolean()),
      { numRuns: 120, seed: 42 },
    );
    for (const [minutesAgo, amount, inbound] of random) {
      const effectiveAt = new Date(now - minutesAgo * 60_000);
      await (inbound
        ? ledger.transfer(tenantId, 'equity', 'wallet', amount, { effectiveAt })
        : ledger.transfer(tenantId, 'wallet', 'equity', amount, { effectiveAt }));
    }
    await ledger.get(TakeBalanceSnapshotsUseCase).execute(new Date(now + 10 * DAY_MS));
    await ledger.get(TakeBalanceSnapshotsUseCase).execute(new Date(now + 20 * DAY_MS));
  });
  afterAll(async () => {
    await ledger.close();
    await test.drop();
  });

  async function recomputed(asOf: Date): Promise<bigint> {
    const rows = await test.database.sql.query<{ balance: string | null }>(
      `SELECT sum(CASE e.direction WHEN 'credit' THEN e.amount_minor ELSE -e.amount_minor END)::text AS balance
         FROM entries e JOIN accounts a ON a.tenant_id = e.tenant_id AND a.id = e.account_id
        WHERE e.tenant_id = $1 AND a.code = 'wallet' AND NOT e.pending AND e.effective_at <= $2`,
      [tenantId, asOf],
    );
    return BigInt(rows[0]!.balance ?? '0');
  }

  it('uses snapshots', async () => {
    const rows = await test.database.sql.query<{ n: bigint }>(
      'SELECT count(*)::int8 AS n FROM balance_snapshots WHERE tenant_id = $1',
      [tenantId],
    );
    expect(rows[0]!.n).toBeGreaterThanOrEqual(2n);
  });

  it('equals a recomputation from raw entries at random past times', async () => {
    const times = fc
      .sample(fc.integer({ min: -31 * 24 * 60, max: 60 }), { numRuns: 60, seed: 7 })
      .map((minutes) => new Date(now + minutes * 60_000));
    for (const asOf of times) {
      const answer = await ledger.get(GetBalanceUseCase).execute({ tenantId, account: 'wallet', asOf });
      expect(BigInt(answer.posted), asOf.toISOString()).toBe(await recomputed(asOf));
    }
  });

  it('answers exactly at a snapshot boundary and one millisecond either side', async () => {
    const snapshots = await test.database.sql.query<{ as_of: Date }>(
      'SELECT as_of FROM balance_snapshots WHERE tenant_id = $1',
      [tenantId],
    );
    for (const { as_of: boundary } of snapshots) {
      for (const offset of [-1, 0, 1]) {
        const asOf = new Date(boundary.getTime() + offset);
        expect(
          BigInt((await ledger.get(GetBalanceUseCase).execute({ tenantId, account: 'wallet', asOf })).posted),
        ).toBe(await recomputed(asOf));
      }
    }
  });
});
