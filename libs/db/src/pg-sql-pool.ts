import pg from 'pg';
import type { IsolationLevel, SqlPool, SqlTransaction } from './sql-client';

const INT8_OID = 20;
const typeParsers = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? (value: string) => BigInt(value) : pg.types.getTypeParser(oid, format),
};

function transactionOn(client: pg.PoolClient): SqlTransaction {
  return {
    async query<Row extends object>(text: string, params: readonly unknown[] = []) {
      const result = await client.query<Row>({ text, values: params as unknown[], types: typeParsers });
      return result.rows;
    },
    async execScript(script: string) {
      await client.query(script);
    },
  };
}

export class PgSqlPool implements SqlPool {
  readonly driver = 'pg';

  constructor(readonly pool: pg.Pool) {}

  async query<Row extends object>(text: string, params: readonly unknown[] = []): Promise<Row[]> {
    const result = await this.pool.query<Row>({ text, values: params as unknown[], types: typeParsers });
    return result.rows;
  }

  async transaction<T>(isolation: IsolationLevel, work: (tx: SqlTransaction) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query(`BEGIN ISOLATION LEVEL ${isolation.toUpperCase()}`);
      const result = await work(transactionOn(client));
      await client.query('COMMIT');
      return result;
    } catch (error) {
      // A connection that cannot roll back is discarded rather than handed to the next caller.
      await client.query('ROLLBACK').catch(() => (broken = true));
      throw error;
    } finally {
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
