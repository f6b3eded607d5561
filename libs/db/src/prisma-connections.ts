import assert from 'node:assert/strict';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { ReadReplica, ReadRoute } from './read-replica';
import type { TransactionScope } from './transaction-scope';

const OWN_TRANSACTION_INSIDE =
  'a Prisma query opened a transaction of its own inside a database transaction: write it as single ' +
  'queries (no nested writes, no $transaction), or as a SQL statement';

type Forwarded = (...args: unknown[]) => unknown;

/**
 * The pg pool that Prisma Client's adapter and the SQL pool share. Prisma's queries go to the current
 * transaction's connection when there is one (see TransactionScope); else, inside a read-only request
 * routed to the replica (see ReadReplica), to the replica's pool; else to this pool as usual.
 */
export class TransactionAwarePgPool extends pg.Pool {
  private reads: ReadReplica | undefined;

  constructor(
    private readonly scope: TransactionScope,
    config: pg.PoolConfig,
  ) {
    super(config);
  }

  /** Statements outside a transaction of a read routed to the replica go there from now on. */
  routeReadsTo(reads: ReadReplica): void {
    this.reads = reads;
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg's query() has a dozen overloads; this forwards them all
  override query(...args: any[]): any {
    const connection = this.scope.connection as pg.PoolClient | undefined;
    if (connection !== undefined) return (connection.query as Forwarded).apply(connection, args);
    // Without a replica this is one property read; the callback form (unused here) stays on the primary.
    const route = this.reads?.replicaRoute;
    if (route !== undefined && typeof args.at(-1) !== 'function') return this.onReplica(this.reads!, route, args);
    return (super.query as Forwarded).apply(this, args);
  }

  /** A statement on the primary whatever the current read intent (the replica's monitor, the token). */
  queryPrimary<Row extends pg.QueryResultRow>(text: string): Promise<pg.QueryResult<Row>> {
    return super.query<Row>(text);
  }

  private async onReplica(reads: ReadReplica, route: ReadRoute, args: unknown[]): Promise<unknown> {
    try {
      return await (reads.pool.query as Forwarded).apply(reads.pool, args);
    } catch (error) {
      if (!reads.primaryInstead(route, error)) throw error;
      return (super.query as Forwarded).apply(this, args);
    }
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
