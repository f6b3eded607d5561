import { createHash } from 'node:crypto';
import pg from 'pg';
import { awaitedLater } from './awaited-later';
import { pgArrayLiteral } from './pg-array-literal';
import { SqlArray } from './sql-array';
import type { IsolationLevel, SqlPool, SqlTransaction } from './sql-client';

// Every statement is prepared once per connection under a name derived from its text, so PostgreSQL
// parses and plans the posting path's SQL once, not on every call. The texts are constants of the
// code, so the set of names is small and fixed. What a statement's queries share (name, text, type
// parsers) is the prototype of each query's config, whose one own property is its values: node-postgres
// copies every config it is given property descriptor by descriptor, which costs per own property.
const STATEMENTS = new Map<string, StatementConfig>();
const STATEMENT_NAMES_MAX = 1_000;

interface StatementConfig {
  name: string | undefined;
  text: string;
  types: typeof typeParsers;
}

function statementConfig(text: string): StatementConfig {
  let statement = STATEMENTS.get(text);
  if (statement === undefined) {
    // Beyond the bound (never reached: the texts are constants of the code) a statement is not named.
    const named = STATEMENTS.size < STATEMENT_NAMES_MAX;
    const name = named ? `l_${createHash('sha1').update(text).digest('hex').slice(0, 20)}` : undefined;
    statement = { name, text, types: typeParsers };
    if (!named) return statement;
    STATEMENTS.set(text, statement);
  }
  return statement;
}

function queryConfig(text: string, params: readonly unknown[]): pg.QueryConfig {
  // A SqlArray is sent in binary format as it is (a Buffer parameter); a plain array as a text literal.
  const values = params.map((value) =>
    value instanceof SqlArray ? value.bytes() : Array.isArray(value) ? pgArrayLiteral(value) : value,
  );
  const config = Object.create(statementConfig(text)) as pg.QueryConfig;
  config.values = values;
  return config;
}

const INT8_OID = 20;
const parseInt8 = (value: string) => BigInt(value);
const typeParsers = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID ? parseInt8 : pg.types.getTypeParser(oid, format),
};

function transactionOn(client: pg.PoolClient, sendCommit: () => void): SqlTransaction {
  return {
    connection: client,
    sendCommit,
    async query<Row extends object>(text: string, params: readonly unknown[] = []) {
      const result = await client.query<Row>(queryConfig(text, params));
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

  get connectionsMax(): number {
    return this.pool.options.max;
  }

  async query<Row extends object>(text: string, params: readonly unknown[] = []): Promise<Row[]> {
    const result = await this.pool.query<Row>(queryConfig(text, params));
    return result.rows;
  }

  async transaction<T>(isolation: IsolationLevel, work: (tx: SqlTransaction) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    // The pool listens for errors of idle connections only. A connection lost while checked out here
    // (the server restarted between two statements) emits 'error' on the client, which would otherwise
    // be an uncaught exception that ends the process; its next statement fails and it is discarded.
    const onConnectionLost = () => (broken = true);
    client.on('error', onConnectionLost);
    // COMMIT is sent once: by the work, behind its last statement (sendCommit), or after it returned.
    let committed: Promise<pg.QueryResult> | undefined;
    const sendCommit = () => {
      committed ??= awaitedLater(client.query('COMMIT'));
    };
    try {
      // The work's first statement follows BEGIN without a turn of the event loop (see awaitedLater).
      // If BEGIN fails, the connection is lost, and so is that statement.
      const begun = awaitedLater(client.query(`BEGIN ISOLATION LEVEL ${isolation.toUpperCase()}`));
      const result = await work(transactionOn(client, sendCommit));
      await begun;
      sendCommit();
      // PostgreSQL answers COMMIT with ROLLBACK when a statement of the transaction failed: a work that
      // did not await that statement (or caught its error) must not be taken for committed.
      const { command } = await committed!;
      if (command !== 'COMMIT') throw new Error(`the transaction was rolled back at COMMIT (${command})`);
      return result;
    } catch (error) {
      // A connection that cannot roll back is discarded rather than handed to the next caller.
      await client.query('ROLLBACK').catch(() => (broken = true));
      throw error;
    } finally {
      client.off('error', onConnectionLost);
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
