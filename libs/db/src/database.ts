import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PrismaClient } from './generated/prisma/client';
import type { ReadReplica } from './read-replica';
import type { StatisticsKeeper } from './statistics-keeper';
import type { IsolationLevel, SqlExecutor, SqlPool } from './sql-client';
import { type SqlStatement, bindParameters } from './sql-statement';
import { TransactionScope } from './transaction-scope';
import { TRANSACTION_ATTEMPTS_MAX, isRetryableTransactionError, retryDelayMs } from './transaction-retry';

/** The arguments after a statement: its parameters, or nothing for a statement that takes none. */
type ParamsArgument<Params extends object> = [keyof Params] extends [never] ? [] : [params: Params];

/**
 * The one door to PostgreSQL: hand-written statements through `query`, Prisma Client through
 * `prisma`, and one way to be in a transaction, `transaction(isolation, work)`.
 *
 * The transaction is ambient: inside `work`, every `query` and every Prisma Client query runs on the
 * transaction's connection, whoever calls it, so repositories take no transaction parameter and a use
 * case decides where its unit of work begins. `transaction()` called inside another (a use case inside
 * the idempotency interceptor's transaction) joins it: one request, one database transaction. Only the
 * outermost call retries, and it re-runs the whole unit of work.
 */
export class Database {
  constructor(
    private readonly prismaClient: PrismaClient,
    /** The driver pool: for the migration runner and tests; product code calls `query`. */
    readonly sql: SqlPool,
    private readonly scope: TransactionScope = new TransactionScope(),
    /** The streaming replica read-only requests read from (DATABASE_READ_URL); undefined without one. */
    readonly replica?: ReadReplica,
  ) {}

  /** Analyzes the tables as they grow (LEDGER_ANALYZE_CHECK_SECONDS); none where it is off. */
  private statistics: StatisticsKeeper | undefined;

  /** Hands over the keeper, which then stops when the database closes. */
  keepStatisticsWith(keeper: StatisticsKeeper): void {
    assert.ok(this.statistics === undefined, 'one statistics keeper per database');
    this.statistics = keeper;
  }

  /**
   * Prisma Client, for the ordinary reads and writes. Inside a transaction its queries run on the
   * transaction's connection; a Prisma query that would open a transaction of its own there (a nested
   * write, `$transaction`) fails loudly instead of running beside it.
   */
  get prisma(): PrismaClient {
    return this.prismaClient;
  }

  /** Runs one statement in the current transaction, or on its own when there is none. */
  async query<Params extends object, Row extends object>(
    statement: SqlStatement<Params, Row>,
    ...params: ParamsArgument<Params>
  ): Promise<Row[]> {
    const values = statement.parameterNames.length === 0 ? [] : bindParameters(statement, params[0] ?? {});
    return this.executor.query<Row>(statement.text, values);
  }

  /** The current transaction's connection, or the pool (autocommit) when there is none. */
  private get executor(): SqlExecutor {
    return this.scope.current?.tx ?? this.sql;
  }

  get inTransaction(): boolean {
    return this.scope.current !== undefined;
  }

  async transaction<T>(isolation: IsolationLevel, work: () => Promise<T>): Promise<T> {
    const current = this.scope.current;
    if (current) {
      assert.equal(
        current.isolation,
        isolation,
        `nested transaction asks for ${isolation} inside ${current.isolation}`,
      );
      return current.joined ? work() : this.scope.run({ ...current, joined: true }, work);
    }
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.sql.transaction(isolation, (tx) => this.scope.run({ tx, isolation }, work));
      } catch (error) {
        if (!isRetryableTransactionError(error) || attempt >= TRANSACTION_ATTEMPTS_MAX) throw error;
        await sleep(retryDelayMs(attempt));
      }
    }
  }

  /**
   * Called by a transaction's work once it has sent its last statement (see awaitedLater): COMMIT is
   * sent behind them now, instead of after the work has had their answers, returned, and waited for its
   * turn of the event loop, which in a busy process can take milliseconds while the transaction holds
   * its locks. From here on the work may only await what it has sent and build its result from the
   * answers: a statement that fails turns the COMMIT into a ROLLBACK and the transaction's caller gets
   * the failure, but an error of the work's own after this point would not undo the commit. Only the
   * work that began the transaction may call it; a joined one does not know what its caller still sends.
   */
  commitBehindSent(): void {
    const current = this.scope.current;
    assert.ok(current !== undefined, 'COMMIT is sent inside a transaction');
    assert.ok(!current.joined, 'COMMIT is sent by the work that began the transaction, not by one that joined it');
    current.tx.sendCommit();
  }

  /** Whether a transaction can be open while another, separate one runs (see `separateTransaction`). */
  get allowsSeparateTransactions(): boolean {
    return this.sql.connectionsMax > 1;
  }

  /**
   * A transaction of its own on another connection, even inside an enclosing one: for a long read that
   * runs beside the current unit of work instead of in it. It sees only what others have committed.
   * Not on a single connection (the embedded database), where it would wait for the enclosing one.
   */
  async separateTransaction<T>(isolation: IsolationLevel, work: () => Promise<T>): Promise<T> {
    assert.ok(this.allowsSeparateTransactions, 'a separate transaction needs a second connection');
    return this.scope.outside(() => this.transaction(isolation, work));
  }

  /**
   * The primary's WAL position now, which a later read may wait for on the replica (read-your-writes).
   * Taken after the request's transaction committed: inside it, the position could precede the commit.
   */
  async consistencyToken(): Promise<string | undefined> {
    assert.ok(!this.inTransaction, 'a consistency token is taken after the transaction committed');
    return this.replica?.consistencyToken();
  }

  async close(): Promise<void> {
    await this.statistics?.stop();
    await this.replica?.close();
    await this.prismaClient.$disconnect();
    await this.sql.close();
  }
}
