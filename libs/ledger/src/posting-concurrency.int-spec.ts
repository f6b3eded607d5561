import { type TestDatabase, createTestDatabase } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LedgerFixture, ledgerFixture } from '../test/ledger-fixture';

// Real concurrent connections against PostgreSQL: each posting runs in its own transaction.
describe('concurrent posting', () => {
  let test: TestDatabase;
  let ledger: LedgerFixture;

  beforeAll(async () => {
    test = await createTestDatabase(30);
    ledger = await ledgerFixture(test.database);
  });
  afterAll(async () => {
    await test.drop();
  });

  async function outcomes(attempts: Promise<unknown>[]) {
    const settled = await Promise.allSettled(attempts);
    const refused = settled
      .filter((result) => result.status === 'rejected')
      .map((result) => (result as PromiseRejectedResult).reason);
    for (const reason of refused) {
      if (!(reason instanceof DomainError) || reason.code !== 'INSUFFICIENT_FUNDS') throw reason;
    }
    return { succeeded: settled.length - refused.length, refused: refused.length };
  }

  it(
    '60 clients draining one non-negative account: exactly ' + 'the affordable ones succeed, never below zero',
    async () => {
      const tenantId = await ledger.tenant();
      await ledger.account(tenantId, { code: 'equity', currency: 'USD', normalBalance: 'credit', allowNegative: true });
      await ledger.account(tenantId, { code: 'wallet', currency: 'USD', normalBalance: 'credit' });
      await ledger.account(tenantId, { code: 'merchant', currency: 'USD', normalBalance: 'credit' });
      // 37 withdrawals of 7 are affordable out of 260 (37 * 7 = 259).
      await ledger.transfer(tenantId, 'equity', 'wallet', 260n);
      const result = await outcomes(
        Array.from({ length: 60 }, () => ledger.transfer(tenantId, 'wallet', 'merchant', 7n)),
      );
      expect(result).toEqual({ succeeded: 37, refused: 23 });
      const rows = await test.database.sql.query<{ balance: bigint; entries: bigint }>(
        `SELECT a.posted_credits - a.posted_debits AS balance,
              (SELECT count(*)::int8 FROM entries e WHERE e.tenant_id = a.tenant_id AND e.account_id = a.id) AS entries
         FROM accounts a WHERE a.tenant_id = $1 AND a.code = 'wallet'`,
        [tenantId],
      );
      expect(rows[0]).toEqual({ balance: 1n, entries: 38n });
    },
  );

  it('transfers in both directions between the same accounts never deadlock, and the books stay balanced', async () => {
    const tenantId = await ledger.tenant();
    const codes = ['a', 'b', 'c', 'd'];
    await ledger.account(tenantId, { code: 'equity', currency: 'USD', normalBalance: 'credit', allowNegative: true });
    for (const code of codes) {
      await ledger.account(tenantId, { code, currency: 'USD', normalBalance: 'credit' });
      await ledger.transfer(tenantId, 'equity', code, 1_000n);
    }
    const attempts = Array.from({ length: 200 }, (_, index) => {
      const from = codes[index % 4]!;
      const to = codes[(index * 7 + 1) % 4 === index % 4 ? (index + 1) % 4 : (index * 7 + 1) % 4]!;
      return ledger.transfer(tenantId, from, to, BigInt(1 + (index % 50)));
    });
    const result = await outcomes(attempts);
    expect(result.succeeded + result.refused).toBe(200);
    const books = await test.database.sql.query<{ net: bigint; drift: bigint; negative: bigint }>(
      `SELECT sum(a.posted_debits - a.posted_credits)::int8 AS net,
              count(*) FILTER (WHERE a.posted_debits <> coalesce(s.debits, 0)
                                OR a.posted_credits <> coalesce(s.credits, 0))::int8 AS drift,
              count(*) FILTER (WHERE NOT a.allow_negative AND a.posted_credits < a.posted_debits)::int8 AS negative
         FROM accounts a
         LEFT JOIN (SELECT account_id,
                           sum(amount_minor) FILTER (WHERE direction = 'debit') AS debits,
                           sum(amount_minor) FILTER (WHERE direction = 'credit') AS credits
                      FROM entries WHERE tenant_id = $1 GROUP BY account_id) s ON s.account_id = a.id
        WHERE a.tenant_id = $1`,
      [tenantId],
    );
    expect(books[0]).toEqual({ net: 0n, drift: 0n, negative: 0n });
  });

  it('each entry records the running balance: the chain of posted balances per account has no gap', async () => {
    const tenantId = await ledger.tenant();
    await ledger.account(tenantId, { code: 'equity', currency: 'USD', normalBalance: 'credit', allowNegative: true });
    await ledger.account(tenantId, { code: 'w', currency: 'USD', normalBalance: 'credit' });
    await Promise.all(
      Array.from({ length: 40 }, (_, index) => ledger.transfer(tenantId, 'equity', 'w', BigInt(index + 1))),
    );
    const rows = await test.database.sql.query<{
      account_version: bigint;
      posted_balance_after: bigint;
      amount_minor: bigint;
    }>(
      `SELECT e.account_version, e.posted_balance_after, e.amount_minor
         FROM entries e JOIN accounts a ON a.tenant_id = e.tenant_id AND a.id = e.account_id
        WHERE e.tenant_id = $1 AND a.code = 'w' ORDER BY e.account_version`,
      [tenantId],
    );
    let running = 0n;
    rows.forEach((row, index) => {
      running += row.amount_minor;
      expect(row.account_version).toBe(BigInt(index + 1));
      expect(row.posted_balance_after).toBe(running);
    });
    expect(running).toBe(820n);
  });
});
