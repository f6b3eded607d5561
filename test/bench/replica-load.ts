import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { APPLY_POSTING, INSERT_TRANSACTION, LOCK_ACCOUNTS } from '../../libs/ledger/src/transactions/posting.sql';
import { type LoadHooks, type LoadResult, runClosedLoop } from './load-loop';
import { CURRENCY, type Fixture, type WorkloadName, nextTransfer, sha256, uuidV7 } from './workloads';

// Diagnostic mode "replica" (opt-in: BENCH_MODES=api,sql,replica): the API's posting path statement
// for statement, over pg without HTTP or Nest. API minus replica is the cost of the HTTP server and
// the framework; replica minus sql is the cost of the extra statements (idempotency, savepoint,
// outbox). It also times every statement's round trip, to show which of them dominates.
// The posting statements are imported from the ledger, so they cannot drift; the idempotency and
// outbox statements are not exported by their libs and are copied here verbatim.

export const REPLICA_APPLICATION_NAME = 'ledger-bench-replica';

// Copied from libs/idempotency/src/idempotency.repository.ts.
const TRY_LOCK_KEY = `SELECT pg_try_advisory_xact_lock(hashtextextended($1::text || ':' || $2, 0)) AS locked`;
const FIND_LIVE_KEY = `
SELECT fingerprint, state, response_status, response_body
  FROM idempotency_keys
 WHERE tenant_id = $1 AND key = $2 AND expires_at > now()`;
const STORE_OUTCOME = `
INSERT INTO idempotency_keys (tenant_id, key, fingerprint, state, response_status, response_body, expires_at)
VALUES ($1, $2, $3, $4, $5, $6::text::jsonb, now() + make_interval(secs => $7))
ON CONFLICT (tenant_id, key) DO UPDATE
   SET fingerprint = excluded.fingerprint, state = excluded.state, response_status = excluded.response_status,
       response_body = excluded.response_body, created_at = now(), expires_at = excluded.expires_at
 WHERE idempotency_keys.expires_at <= now()`;
// Copied from libs/outbox/src/outbox.writer.ts.
const INSERT_EVENTS = `
INSERT INTO outbox_events (tenant_id, id, type, aggregate_type, aggregate_id, aggregate_version, data)
SELECT $1, e.id, e.type, e.aggregate_type, e.aggregate_id, e.aggregate_version, e.data::jsonb
  FROM unnest($2::uuid[], $3::text[], $4::text[], $5::uuid[], $6::int8[], $7::text[])
       AS e(id, type, aggregate_type, aggregate_id, aggregate_version, data)`;

export const REPLICA_STATEMENTS = [
  'BEGIN',
  'idempotency advisory lock',
  'idempotency lookup',
  'SAVEPOINT',
  'insert transaction',
  'lock accounts',
  'apply posting (CTE)',
  'outbox insert',
  'idempotency store',
  'COMMIT',
] as const;

interface LockedRow {
  id: string;
  code: string;
  normal_balance: 'debit' | 'credit';
  allow_negative: boolean;
  posted_debits: string;
  posted_credits: string;
  version: string;
}

class StatementClock {
  readonly totalsMs = new Float64Array(REPLICA_STATEMENTS.length);
  transfers = 0;

  async time<T>(index: number, work: Promise<T>): Promise<T> {
    const beganMs = performance.now();
    const result = await work;
    this.totalsMs[index]! += performance.now() - beganMs;
    return result;
  }
}

async function postLikeTheApi(client: pg.Client, clock: StatementClock, fixture: Fixture, workload: WorkloadName, key: string): Promise<string | undefined> {
  const transfer = nextTransfer(workload, fixture);
  const amount = transfer.amountMinor.toString();
  const request = {
    metadata: {},
    entries: [
      { account: transfer.debitAccountId, direction: 'debit', amount, currency: CURRENCY },
      { account: transfer.creditAccountId, direction: 'credit', amount, currency: CURRENCY },
    ],
  };
  const tenantId = fixture.tenantId;
  const fingerprint = sha256(`POST /v1/transactions\n${JSON.stringify(request)}`);
  const q = (index: number, text: string, values: unknown[] = []) => clock.time(index, client.query(text, values));
  await q(0, 'BEGIN ISOLATION LEVEL READ COMMITTED');
  try {
    await q(1, TRY_LOCK_KEY, [tenantId, key]);
    await q(2, FIND_LIVE_KEY, [tenantId, key]);
    await q(3, 'SAVEPOINT idempotent_handler');
    const id = uuidV7();
    const header = await q(4, INSERT_TRANSACTION, [tenantId, id, null, sha256(JSON.stringify(request)), null, '{}', null]);
    const { effective_at: effectiveAt, created_at: createdAt } = header.rows[0] as { effective_at: Date; created_at: Date };
    const locked = (await q(5, LOCK_ACCOUNTS, [tenantId, [transfer.debitAccountId, transfer.creditAccountId], []])).rows as LockedRow[];
    const byId = new Map(locked.map((row) => [row.id, row]));
    const legs = [
      { row: byId.get(transfer.debitAccountId)!, direction: 'debit' as const },
      { row: byId.get(transfer.creditAccountId)!, direction: 'credit' as const },
    ];
    const planned = legs.map(({ row, direction }, leg) => {
      const signed = direction === row.normal_balance ? transfer.amountMinor : -transfer.amountMinor;
      const posted = row.normal_balance === 'credit' ? BigInt(row.posted_credits) - BigInt(row.posted_debits) : BigInt(row.posted_debits) - BigInt(row.posted_credits);
      return { leg, row, direction, version: BigInt(row.version) + 1n, after: posted + signed };
    });
    if (planned.some((entry) => !entry.row.allow_negative && entry.after < 0n)) {
      await client.query('ROLLBACK');
      return 'INSUFFICIENT_FUNDS';
    }
    await q(6, APPLY_POSTING, [
      tenantId, id,
      planned.map((entry) => entry.row.id),
      planned.map((entry) => (entry.direction === 'debit' ? amount : '0')),
      planned.map((entry) => (entry.direction === 'credit' ? amount : '0')),
      effectiveAt,
      [0, 1],
      planned.map((entry) => entry.row.id),
      planned.map((entry) => entry.direction),
      [amount, amount],
      [CURRENCY, CURRENCY],
      planned.map((entry) => entry.version.toString()),
      planned.map((entry) => entry.after.toString()),
    ]);
    const view = {
      id, status: 'posted', externalRef: null, description: null, metadata: {},
      effectiveAt: effectiveAt.toISOString(), createdAt: createdAt.toISOString(),
      entries: planned.map((entry) => ({ leg: entry.leg, accountId: entry.row.id, accountCode: entry.row.code, direction: entry.direction, amount, currency: CURRENCY })),
    };
    await q(7, INSERT_EVENTS, [tenantId, [uuidV7()], ['transaction.posted'], ['transaction'], [id], ['1'], [JSON.stringify({ transaction: view })]]);
    await q(8, STORE_OUTCOME, [tenantId, key, fingerprint, 'completed', 201, JSON.stringify(view), 24 * 3600]);
    await q(9, 'COMMIT');
    clock.transfers++;
    return undefined;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? `SQLSTATE ${code}` : `exception: ${error instanceof Error ? error.message : String(error)}`;
  }
}

export interface ReplicaLoadOptions {
  databaseUrl: string;
  fixture: Fixture;
  workload: WorkloadName;
  concurrency: number;
  transfers: number;
  timeoutMs: number;
  hooks?: LoadHooks;
}

/** The load result, and the mean round trip of each statement of a successful transfer. */
export async function runReplicaLoad(options: ReplicaLoadOptions): Promise<{ result: LoadResult; statementMeansMs: Record<string, number> }> {
  const clients = Array.from(
    { length: options.concurrency },
    () => new pg.Client({ connectionString: options.databaseUrl, application_name: REPLICA_APPLICATION_NAME, statement_timeout: 30_000 }),
  );
  const clock = new StatementClock();
  const keyPrefix = `replica-${uuidV7()}`;
  try {
    await Promise.all(clients.map((client) => client.connect()));
    const result = await runClosedLoop({
      concurrency: options.concurrency,
      transfers: options.transfers,
      timeoutMs: options.timeoutMs,
      hooks: options.hooks,
      attempt: (workerIndex, sequence) => postLikeTheApi(clients[workerIndex]!, clock, options.fixture, options.workload, `${keyPrefix}-${sequence}`),
    });
    const statementMeansMs = Object.fromEntries(
      REPLICA_STATEMENTS.map((name, index) => [name, clock.transfers > 0 ? clock.totalsMs[index]! / clock.transfers : Number.NaN]),
    );
    return { result, statementMeansMs };
  } finally {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
  }
}
