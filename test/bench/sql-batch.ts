import type pg from 'pg';
import type { AttemptOutcome } from './load-loop';
import {
  type AccountState,
  chainLinks,
  journalCtes,
  lockAccounts,
  sqlFailureLabel,
  takeJournalHead,
} from './sql-common';
import { CURRENCY, type Fixture, type Transfer, nextTransfer, sha256, uuidV7 } from './workloads';

// The batched baseline: N transfers between random distinct wallets in one READ COMMITTED transaction
// of five round trips: BEGIN; lock every account involved FOR UPDATE in id order (one statement); take
// a journal stripe; one statement that inserts all transaction rows, updates every account once (its
// summed deltas, version + the number of legs it took), inserts all entries and journal links and
// moves the stripe's head; COMMIT. Versions and posted balances after each entry are computed here,
// account by account through the batch, as the schema's UNIQUE (tenant_id, account_id,
// account_version) and the books checks require. A transfer that would overdraw is skipped alone.

const POST_BATCH = `
WITH header AS (
  INSERT INTO transactions (tenant_id, id, status, content_hash, effective_at, actor)
  SELECT $1, t.id, 'posted', t.content_hash, now(), 'bench' FROM unnest($2::uuid[], $3::bytea[]) AS t(id, content_hash)
), moved AS (
  UPDATE accounts a
     SET posted_debits = a.posted_debits + d.debit_minor, posted_credits = a.posted_credits + d.credit_minor,
         version = a.version + d.versions
    FROM unnest($4::uuid[], $5::int8[], $6::int8[], $7::int8[]) AS d(account_id, debit_minor, credit_minor, versions)
   WHERE a.tenant_id = $1 AND a.id = d.account_id
), ${journalCtes(8)}
INSERT INTO entries (tenant_id, transaction_id, leg, account_id, direction, amount_minor, currency,
                     account_version, posted_balance_after, effective_at)
SELECT $1, e.transaction_id, e.leg, e.account_id, e.direction, e.amount_minor, $15, e.account_version,
       e.posted_balance_after, now()
  FROM unnest($16::uuid[], $17::int2[], $18::uuid[], $19::text[], $20::int8[], $21::int8[], $22::int8[])
       AS e(transaction_id, leg, account_id, direction, amount_minor, account_version, posted_balance_after)`;

interface Delta {
  debitMinor: bigint;
  creditMinor: bigint;
  versions: number;
}

/** The batch's rows as the unnest arrays of POST_BATCH, filled transfer by transfer. */
class BatchRows {
  readonly transactions: { transactionId: string; contentHash: Buffer }[] = [];
  readonly deltas = new Map<string, Delta>();
  readonly entries = {
    transactionIds: [] as string[],
    legs: [] as number[],
    accountIds: [] as string[],
    directions: [] as string[],
    amounts: [] as string[],
    versions: [] as string[],
    balances: [] as string[],
  };

  add(transfer: Transfer, debit: AccountState, credit: AccountState): void {
    const transactionId = uuidV7();
    const amount = transfer.amountMinor.toString();
    this.transactions.push({
      transactionId,
      contentHash: sha256(`${transfer.debitAccountId}>${transfer.creditAccountId}:${amount}`),
    });
    const legs = [
      { accountId: transfer.debitAccountId, direction: 'debit', after: debit.apply('debit', transfer.amountMinor) },
      { accountId: transfer.creditAccountId, direction: 'credit', after: credit.apply('credit', transfer.amountMinor) },
    ] as const;
    for (const [leg, { accountId, direction, after }] of legs.entries()) {
      const delta = this.deltas.get(accountId) ?? { debitMinor: 0n, creditMinor: 0n, versions: 0 };
      if (direction === 'debit') delta.debitMinor += transfer.amountMinor;
      else delta.creditMinor += transfer.amountMinor;
      delta.versions += 1;
      this.deltas.set(accountId, delta);
      const { entries } = this;
      entries.transactionIds.push(transactionId);
      entries.legs.push(leg);
      entries.accountIds.push(accountId);
      entries.directions.push(direction);
      entries.amounts.push(amount);
      entries.versions.push(after.versionAfter.toString());
      entries.balances.push(after.postedBalanceAfter.toString());
    }
  }
}

/** One batch of `batchSize` transfers; overdrawing transfers are counted as INSUFFICIENT_FUNDS. */
export async function postSqlBatch(client: pg.Client, fixture: Fixture, batchSize: number): Promise<AttemptOutcome> {
  const transfers = Array.from({ length: batchSize }, () => nextTransfer('uncontended', fixture));
  const accountIds = [...new Set(transfers.flatMap((transfer) => [transfer.debitAccountId, transfer.creditAccountId]))];
  const tenantId = fixture.tenantId;
  await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
  try {
    const accounts = await lockAccounts(client, tenantId, accountIds);
    const rows = new BatchRows();
    let refused = 0;
    for (const transfer of transfers) {
      const debit = accounts.get(transfer.debitAccountId);
      const credit = accounts.get(transfer.creditAccountId);
      if (debit === undefined || credit === undefined) throw new Error('account not found');
      if (debit.allows('debit', transfer.amountMinor) && credit.allows('credit', transfer.amountMinor))
        rows.add(transfer, debit, credit);
      else refused++;
    }
    const failures = refused === 0 ? undefined : { INSUFFICIENT_FUNDS: refused };
    if (rows.transactions.length === 0) {
      await client.query('ROLLBACK');
      return { transfersCreated: 0, failures };
    }
    const head = await takeJournalHead(client, tenantId);
    const deltas = [...rows.deltas.entries()];
    const { entries } = rows;
    await client.query(POST_BATCH, [
      tenantId,
      rows.transactions.map((row) => row.transactionId),
      rows.transactions.map((row) => row.contentHash),
      deltas.map(([accountId]) => accountId),
      deltas.map(([, delta]) => delta.debitMinor.toString()),
      deltas.map(([, delta]) => delta.creditMinor.toString()),
      deltas.map(([, delta]) => delta.versions),
      ...chainLinks(head, rows.transactions).params,
      CURRENCY,
      entries.transactionIds,
      entries.legs,
      entries.accountIds,
      entries.directions,
      entries.amounts,
      entries.versions,
      entries.balances,
    ]);
    await client.query('COMMIT');
    return { transfersCreated: rows.transactions.length, failures };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    return { transfersCreated: 0, failures: { [sqlFailureLabel(error)]: batchSize } };
  }
}
