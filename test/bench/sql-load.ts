import pg from 'pg';
import { type AttemptOutcome, type LoadHooks, type LoadResult, runClosedLoop, singleOutcome } from './load-loop';
import { postSqlBatch } from './sql-batch';
import { chainLinks, journalCtes, lockAccounts, sqlFailureLabel, takeJournalHead } from './sql-common';
import {
  CURRENCY,
  type Fixture,
  TRANSFERS_PER_REQUEST,
  type WorkloadName,
  nextTransfer,
  sha256,
  uuidV7,
} from './workloads';

// The baseline: what a minimal ledger must do per transfer, straight over pg, in one READ COMMITTED
// transaction of five round trips: BEGIN; lock both accounts FOR UPDATE in id order; take a journal
// stripe; one statement that inserts the transaction row, updates both accounts' totals, inserts both
// entries, links the transaction into the journal and moves the stripe's head; COMMIT.
// No idempotency key, no outbox: the difference to the API is what those, validation and HTTP cost.
// Unnamed (unprepared) statements, like the API's, so statement preparation is not a difference.

export const SQL_APPLICATION_NAME = 'ledger-bench-sql';

const POST_TRANSFER = `
WITH header AS (
  INSERT INTO transactions (tenant_id, id, status, content_hash, effective_at, actor)
  VALUES ($1, $2, 'posted', $3, now(), 'bench')
  RETURNING effective_at
), moved AS (
  UPDATE accounts a
     SET posted_debits = a.posted_debits + d.debit_minor, posted_credits = a.posted_credits + d.credit_minor,
         version = a.version + 1
    FROM unnest($4::uuid[], $5::int8[], $6::int8[]) AS d(account_id, debit_minor, credit_minor)
   WHERE a.tenant_id = $1 AND a.id = d.account_id
), ${journalCtes(11)}
INSERT INTO entries (tenant_id, transaction_id, leg, account_id, direction, amount_minor, currency,
                     account_version, posted_balance_after, effective_at)
SELECT $1, $2, e.leg, e.account_id, e.direction, e.amount_minor, $7, e.account_version, e.posted_balance_after,
       h.effective_at
  FROM header h, unnest('{0,1}'::int2[], $4::uuid[], '{debit,credit}'::text[], $8::int8[], $9::int8[], $10::int8[])
       AS e(leg, account_id, direction, amount_minor, account_version, posted_balance_after)`;

async function postTransfer(
  client: pg.Client,
  tenantId: string,
  workload: WorkloadName,
  fixture: Fixture,
): Promise<string | undefined> {
  const transfer = nextTransfer(workload, fixture);
  const legIds = [transfer.debitAccountId, transfer.creditAccountId];
  await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
  try {
    const accounts = await lockAccounts(client, tenantId, legIds);
    const debit = accounts.get(transfer.debitAccountId);
    const credit = accounts.get(transfer.creditAccountId);
    if (debit === undefined || credit === undefined) throw new Error('account not found');
    if (!debit.allows('debit', transfer.amountMinor) || !credit.allows('credit', transfer.amountMinor)) {
      await client.query('ROLLBACK');
      return 'INSUFFICIENT_FUNDS';
    }
    const debitLeg = debit.apply('debit', transfer.amountMinor);
    const creditLeg = credit.apply('credit', transfer.amountMinor);
    const head = await takeJournalHead(client, tenantId);
    const transactionId = uuidV7();
    const amount = transfer.amountMinor.toString();
    const contentHash = sha256(`${transfer.debitAccountId}>${transfer.creditAccountId}:${amount}`);
    await client.query(POST_TRANSFER, [
      tenantId,
      transactionId,
      contentHash,
      legIds,
      [amount, '0'],
      ['0', amount],
      CURRENCY,
      [amount, amount],
      [debitLeg.versionAfter.toString(), creditLeg.versionAfter.toString()],
      [debitLeg.postedBalanceAfter.toString(), creditLeg.postedBalanceAfter.toString()],
      ...chainLinks(head, [{ transactionId, contentHash }]).params,
    ]);
    await client.query('COMMIT');
    return undefined;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    return sqlFailureLabel(error);
  }
}

export interface SqlLoadOptions {
  databaseUrl: string;
  fixture: Fixture;
  workload: WorkloadName;
  concurrency: number;
  /** Transfers per run; batch workloads post them in transactions of their batch size. */
  transfers: number;
  timeoutMs: number;
  hooks?: LoadHooks;
}

/** A transaction of 1000 transfers takes well under a second; this only stops a stuck one. */
const STATEMENT_TIMEOUT_MS = 30_000;

/** One connection per concurrent client, opened before the clock starts. */
export async function runSqlLoad(options: SqlLoadOptions): Promise<LoadResult> {
  const { fixture, workload } = options;
  const batchSize = TRANSFERS_PER_REQUEST[workload];
  const clients = Array.from(
    { length: options.concurrency },
    () =>
      new pg.Client({
        connectionString: options.databaseUrl,
        application_name: SQL_APPLICATION_NAME,
        statement_timeout: STATEMENT_TIMEOUT_MS,
      }),
  );
  const attempt = async (workerIndex: number): Promise<AttemptOutcome> => {
    const client = clients[workerIndex]!;
    if (batchSize === 1) return singleOutcome(await postTransfer(client, fixture.tenantId, workload, fixture));
    return postSqlBatch(client, fixture, batchSize);
  };
  try {
    await Promise.all(clients.map((client) => client.connect()));
    return await runClosedLoop({
      concurrency: options.concurrency,
      requests: Math.ceil(options.transfers / batchSize),
      transfersPerRequest: batchSize,
      timeoutMs: options.timeoutMs,
      hooks: options.hooks,
      attempt,
    });
  } finally {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
  }
}
