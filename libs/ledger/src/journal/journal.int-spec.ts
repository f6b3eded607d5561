import { type TestDatabase, createTestDatabase } from '@ledger/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LedgerFixture, ledgerFixture } from '../../test/ledger-fixture';
import { ResolveHoldUseCase } from '../holds/resolve-hold.use-case';
import { ReverseTransactionUseCase } from '../reversals/reverse-transaction.use-case';
import { VerifyJournalUseCase } from './verify-journal.use-case';

describe('hash-chained journal', () => {
  let test: TestDatabase;
  let ledger: LedgerFixture;

  beforeAll(async () => {
    test = await createTestDatabase(20);
    ledger = await ledgerFixture(test.database);
  });
  afterAll(async () => {
    await ledger.close();
    await test.drop();
  });

  async function busyTenant() {
    const tenantId = await ledger.tenant();
    await ledger.account(tenantId, { code: 'equity', currency: 'USD', normalBalance: 'credit', allowNegative: true });
    await ledger.account(tenantId, { code: 'wallet', currency: 'USD', normalBalance: 'credit' });
    await ledger.account(tenantId, { code: 'shop', currency: 'USD', normalBalance: 'credit' });
    const postings = await Promise.all(
      Array.from({ length: 40 }, (_, index) => ledger.transfer(tenantId, 'equity', 'wallet', BigInt(index + 1))),
    );
    const hold = (
      await ledger.transfer(tenantId, 'wallet', 'shop', 10n, { pendingUntil: new Date(Date.now() + 60_000) })
    ).transaction;
    await ledger
      .get(ResolveHoldUseCase)
      .execute({ tenantId, actor: 'test', holdId: hold.id, action: 'post', amountMinor: 4n });
    await ledger.get(ReverseTransactionUseCase).execute({ tenantId, actor: 'test', id: postings[0]!.transaction.id });
    return { tenantId, victim: postings[7]!.transaction };
  }

  /** What an attacker with psql could do: switch the immutability triggers off and edit. */
  async function tamper(sql: string, params: unknown[]) {
    await test.database.sql.transaction('read committed', async (tx) => {
      await tx.query('SET LOCAL session_replication_role = replica');
      await tx.query(sql, params);
    });
  }

  it('verifies a journal written by concurrent postings, holds and reversals', async () => {
    const { tenantId } = await busyTenant();
    const result = await ledger.get(VerifyJournalUseCase).execute(tenantId);
    expect(result).toMatchObject({ ok: true, links: 43, firstBroken: null });
    expect(result.stripes.length).toBeGreaterThan(1);
  });

  it('names the link whose stored amount was changed by SQL', async () => {
    const { tenantId, victim } = await busyTenant();
    await tamper('UPDATE entries SET amount_minor = amount_minor + 1 WHERE tenant_id = $1 AND transaction_id = $2', [
      tenantId,
      victim.id,
    ]);
    const result = await ledger.get(VerifyJournalUseCase).execute(tenantId);
    expect(result.ok).toBe(false);
    expect(result.firstBroken).toMatchObject({
      transactionId: victim.id,
      stripe: victim.journal.stripe,
      seq: victim.journal.seq,
    });
    expect(result.firstBroken!.reason).toMatch(/does not match its hash/);
  });

  it('catches an edited description, a deleted link and a transaction outside the journal', async () => {
    const edited = await busyTenant();
    await tamper(`UPDATE transactions SET metadata = '{"x":1}' WHERE tenant_id = $1 AND id = $2`, [
      edited.tenantId,
      edited.victim.id,
    ]);
    expect((await ledger.get(VerifyJournalUseCase).execute(edited.tenantId)).firstBroken?.transactionId).toBe(
      edited.victim.id,
    );

    const removed = await busyTenant();
    await tamper('DELETE FROM journal_links WHERE tenant_id = $1 AND transaction_id = $2', [
      removed.tenantId,
      removed.victim.id,
    ]);
    const gap = await ledger.get(VerifyJournalUseCase).execute(removed.tenantId);
    expect(gap.ok).toBe(false);
    expect(gap.firstBroken!.stripe).toBe(removed.victim.journal.stripe);
  });
});
