import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { PrismaClient } from './generated/prisma/client';
import type { IsolationLevel, SqlExecutor, SqlPool, SqlTransaction } from './sql-client';
import { TRANSACTION_ATTEMPTS_MAX, isRetryableTransactionError, retryDelayMs } from './transaction-retry';

interface AmbientTransaction {
  tx: SqlTransaction;
  isolation: IsolationLevel;
}

/**
 * The database: Prisma Client for ordinary reads, and the SQL pool for the hand-written writes that
 * must be atomic with their idempotency key and outbox events.
 *
 * `transaction()` called inside another `transaction()` (for example a use case inside the
 * idempotency interceptor's transaction) joins it: one request, one database transaction. Only the
 * outermost call retries, and it re-runs the whole unit of work.
 */
export class Database {
  private readonly ambient = new AsyncLocalStorage<AmbientTransaction>();

  constructor(
    private readonly prismaClient: PrismaClient,
    readonly sql: SqlPool,
  ) {}

  /**
   * Prisma Client for reads outside transactions. Inside one it would read on another connection
   * (and on the single embedded connection it would wait for itself), so that is a programming error.
   */
  get prisma(): PrismaClient {
    assert.ok(!this.inTransaction, 'Prisma Client used inside a SQL transaction: use the transaction instead');
    return this.prismaClient;
  }

  /** Autocommit query, or the current transaction's if there is one. */
  get executor(): SqlExecutor {
    return this.ambient.getStore()?.tx ?? this.sql;
  }

  get inTransaction(): boolean {
    return this.ambient.getStore() !== undefined;
  }

  async transaction<T>(isolation: IsolationLevel, work: (tx: SqlTransaction) => Promise<T>): Promise<T> {
    const current = this.ambient.getStore();
    if (current) {
      assert.equal(
        current.isolation,
        isolation,
        `nested transaction asks for ${isolation} inside ${current.isolation}`,
      );
      return work(current.tx);
    }
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.sql.transaction(isolation, (tx) => this.ambient.run({ tx, isolation }, () => work(tx)));
      } catch (error) {
        if (!isRetryableTransactionError(error) || attempt >= TRANSACTION_ATTEMPTS_MAX) throw error;
        await sleep(retryDelayMs(attempt));
      }
    }
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
  async separateTransaction<T>(isolation: IsolationLevel, work: (tx: SqlTransaction) => Promise<T>): Promise<T> {
    assert.ok(this.allowsSeparateTransactions, 'a separate transaction needs a second connection');
    return this.ambient.exit(() => this.transaction(isolation, work));
  }

  async close(): Promise<void> {
    await this.prismaClient.$disconnect();
    await this.sql.close();
  }
}
