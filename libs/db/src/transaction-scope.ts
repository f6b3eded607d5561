import { AsyncLocalStorage } from 'node:async_hooks';
import type { IsolationLevel, SqlTransaction } from './sql-client';

export interface AmbientTransaction {
  tx: SqlTransaction;
  isolation: IsolationLevel;
  /** A unit of work that joined an enclosing transaction rather than beginning it. */
  joined?: boolean;
}

/**
 * The database transaction the current async call chain runs in, if any. `Database` enters it; the
 * SQL statements and Prisma Client's queries both run on its connection while it is open, so a
 * request's hand-written SQL and its Prisma reads and writes commit or roll back together.
 */
export class TransactionScope {
  private readonly storage = new AsyncLocalStorage<AmbientTransaction>();

  get current(): AmbientTransaction | undefined {
    return this.storage.getStore();
  }

  /** The driver's handle of the current transaction (a pg client, a PGlite transaction). */
  get connection(): unknown {
    return this.storage.getStore()?.tx.connection;
  }

  run<T>(ambient: AmbientTransaction, work: () => Promise<T>): Promise<T> {
    return this.storage.run(ambient, work);
  }

  /** Runs `work` outside the current transaction (on a connection of its own). */
  outside<T>(work: () => Promise<T>): Promise<T> {
    return this.storage.exit(work);
  }
}
