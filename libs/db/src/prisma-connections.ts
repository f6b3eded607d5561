import assert from 'node:assert/strict';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TransactionScope } from './transaction-scope';

const OWN_TRANSACTION_INSIDE =
  'a Prisma query opened a transaction of its own inside a database transaction: write it as single ' +
  'queries (no nested writes, no $transaction), or as a SQL statement';

type Forwarded = (...args: unknown[]) => unknown;

/**
 * The pg pool that Prisma Client's adapter and the SQL pool share. Prisma's queries go to the current
 * transaction's connection when there is one (see TransactionScope), else to the pool as usual.
 */
export class TransactionAwarePgPool extends pg.Pool {
  constructor(
    private readonly scope: TransactionScope,
    config: pg.PoolConfig,
  ) {
    super(config);
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg's query() has a dozen overloads; this forwards them all
  override query(...args: any[]): any {
    const connection = this.scope.connection as pg.PoolClient | undefined;
    if (connection !== undefined) return (connection.query as Forwarded).apply(connection, args);
    return (super.query as Forwarded).apply(this, args);
  }

  // biome-ignore lint/suspicious/noExplicitAny: as above, for connect()'s callback and promise forms
  override connect(...args: any[]): any {
    assert.ok(this.scope.connection === undefined, OWN_TRANSACTION_INSIDE);
    return (super.connect as Forwarded).apply(this, args);
  }
}

/**
 * The embedded database as Prisma Client's adapter sees it: its queries go to the current transaction
 * when there is one. PGlite runs one transaction at a time, so without this a Prisma query inside a
 * transaction would wait for that transaction to end, forever.
 */
export function transactionAwarePglite(pglite: PGlite, scope: TransactionScope): PGlite {
  return new Proxy(pglite, {
    get(target, property) {
      if (property === 'query') {
        return (...args: Parameters<PGlite['query']>) => {
          const connection = scope.connection as Pick<PGlite, 'query'> | undefined;
          return (connection ?? target).query(...args);
        };
      }
      if (property === 'transaction') {
        assert.ok(scope.connection === undefined, OWN_TRANSACTION_INSIDE);
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
