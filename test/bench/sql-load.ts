import pg from 'pg';
import { type LoadHooks, type LoadResult, runClosedLoop } from './load-loop';
import { CURRENCY, type Fixture, type WorkloadName, nextTransfer, sha256, uuidV7 } from './workloads';

// The baseline: what a minimal ledger must do per transfer, straight over pg, in one READ COMMITTED
// transaction of four round trips: BEGIN; lock both accounts FOR UPDATE in id order; one statement
// that inserts the transaction row, updates both accounts' totals and inserts both entries; COMMIT.
// No idempotency key, no outbox, no savepoint: the difference to the API is what those and HTTP cost.
// Unnamed (unprepared) statements, like the API's, so statement preparation is not a difference.

export const SQL_APPLICATION_NAME = 'ledger-bench-sql';

const LOCK_ACCOUNTS = `
SELECT id, normal_balance, allow_negative, posted_debits, posted_credits, pending_debits, pending_credits, version
  FROM accounts
 WHERE tenant_id = $1 AND id = ANY($2::uuid[])
 ORDER BY id
   FOR UPDATE`;

const POST_TRANSFER = `
WITH header AS (
  INSERT INTO transactions (tenant_id, id, status, content_hash, effective_at)
  VALUES ($1, $2, 'posted', $3, now())
  RETURNING effective_at
), moved AS (
  UPDATE accounts a
     SET posted_debits = a.posted_debits + d.debit_minor, posted_credits = a.posted_credits + d.credit_minor,
         version = a.version + 1
    FROM unnest($4::uuid[], $5::int8[], $6::int8[]) AS d(account_id, debit_minor, credit_minor)
   WHERE a.tenant_id = $1 AND a.id = d.account_id
)
INSERT INTO entries (tenant_id, transaction_id, leg, account_id, direction, amount_minor, currency,
                     account_version, posted_balance_after, effective_at)
SELECT $1, $2, e.leg, e.account_id, e.direction, e.amount_minor, $7, e.account_version, e.posted_balance_after, h.effective_at
  FROM header h, unnest('{0,1}'::int2[], $4::uuid[], '{debit,credit}'::text[], $8::int8[], $9::int8[], $10::int8[])
       AS e(leg, account_id, direction, amount_minor, account_version, posted_balance_after)`;

interface LockedRow {
  id: string;
  normal_balance: 'debit' | 'credit';
  allow_negative: boolean;
  posted_debits: string;
  posted_credits: string;
  pending_debits: string;
  pending_credits: string;
  version: string;
}

/** Posted balance after one leg, and whether the account may take it (the schema's CHECK, early). */
function legOutcome(row: LockedRow, direction: 'debit' | 'credit', amountMinor: bigint) {
  const debits = BigInt(row.posted_debits) + (direction === 'debit' ? amountMinor : 0n);
  const credits = BigInt(row.posted_credits) + (direction === 'credit' ? amountMinor : 0n);
  const creditNormal = row.normal_balance === 'credit';
  const postedAfter = creditNormal ? credits - debits : debits - credits;
  const pendingOut = BigInt(creditNormal ? row.pending_debits : row.pending_credits);
  return { postedAfter, allowed: row.allow_negative || postedAfter - pendingOut >= 0n, versionAfter: BigInt(row.version) + 1n };
}

async function postTransfer(client: pg.Client, tenantId: string, workload: WorkloadName, fixture: Fixture): Promise<string | undefined> {
  const transfer = nextTransfer(workload, fixture);
  const legIds = [transfer.debitAccountId, transfer.creditAccountId];
  await client.query('BEGIN ISOLATION LEVEL READ COMMITTED');
  try {
    const locked = await client.query<LockedRow>(LOCK_ACCOUNTS, [tenantId, legIds]);
    const byId = new Map(locked.rows.map((row) => [row.id, row]));
    const debit = byId.get(transfer.debitAccountId);
    const credit = byId.get(transfer.creditAccountId);
    if (debit === undefined || credit === undefined) throw new Error('account not found');
    const debitLeg = legOutcome(debit, 'debit', transfer.amountMinor);
    const creditLeg = legOutcome(credit, 'credit', transfer.amountMinor);
    if (!debitLeg.allowed || !creditLeg.allowed) {
      await client.query('ROLLBACK');
      return 'INSUFFICIENT_FUNDS';
    }
    const amount = transfer.amountMinor.toString();
    await client.query(POST_TRANSFER, [
      tenantId,
      uuidV7(),
      sha256(`${transfer.debitAccountId}>${transfer.creditAccountId}:${amount}`),
      legIds,
      [amount, '0'],
      ['0', amount],
      CURRENCY,
      [amount, amount],
      [debitLeg.versionAfter.toString(), creditLeg.versionAfter.toString()],
      [debitLeg.postedAfter.toString(), creditLeg.postedAfter.toString()],
    ]);
    await client.query('COMMIT');
    return undefined;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? `SQLSTATE ${code}` : `exception: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export interface SqlLoadOptions {
  databaseUrl: string;
  fixture: Fixture;
  workload: WorkloadName;
  concurrency: number;
  transfers: number;
  timeoutMs: number;
  hooks?: LoadHooks;
}

/** One connection per concurrent client, opened before the clock starts. */
export async function runSqlLoad(options: SqlLoadOptions): Promise<LoadResult> {
  const clients = Array.from(
    { length: options.concurrency },
    () => new pg.Client({ connectionString: options.databaseUrl, application_name: SQL_APPLICATION_NAME, statement_timeout: 30_000 }),
  );
  try {
    await Promise.all(clients.map((client) => client.connect()));
    return await runClosedLoop({
      concurrency: options.concurrency,
      transfers: options.transfers,
      timeoutMs: options.timeoutMs,
      hooks: options.hooks,
      attempt: (workerIndex) => postTransfer(clients[workerIndex]!, options.fixture.tenantId, options.workload, options.fixture),
    });
  } finally {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
  }
}
