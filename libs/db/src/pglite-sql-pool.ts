import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { IsolationLevel, SqlPool, SqlTransaction } from './sql-client';
import { SqlArray } from './sql-array';

/** PGlite takes parameters as values: a SqlArray is given as its elements. */
function valuesOf(params: readonly unknown[]): unknown[] {
  return params.map((value) => (value instanceof SqlArray ? value.values() : value));
}

function transactionOn(tx: Transaction): SqlTransaction {
  return {
    connection: tx,
    async query<Row extends object>(text: string, params: readonly unknown[] = []) {
      const result = await tx.query<Row>(text, valuesOf(params));
      return result.rows;
    },
    async execScript(script: string) {
      await tx.exec(script);
    },
    // PGlite runs its statements one at a time, in process: there is no round trip to save.
    sendCommit() {},
  };
}

/** The embedded database: one in-process PostgreSQL, so transactions run one at a time. */
export class PgliteSqlPool implements SqlPool {
  readonly driver = 'pglite';
  readonly connectionsMax = 1;

  constructor(readonly pglite: PGlite) {}

  async query<Row extends object>(text: string, params: readonly unknown[] = []): Promise<Row[]> {
    const result = await this.pglite.query<Row>(text, valuesOf(params));
    return result.rows;
  }

  async transaction<T>(isolation: IsolationLevel, work: (tx: SqlTransaction) => Promise<T>): Promise<T> {
    return this.pglite.transaction(async (tx) => {
      await tx.query(`SET TRANSACTION ISOLATION LEVEL ${isolation.toUpperCase()}`);
      return work(transactionOn(tx));
    });
  }

  async close(): Promise<void> {
    await this.pglite.close();
  }
}
