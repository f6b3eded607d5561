import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { Database } from './database';
import { PrismaClient } from './generated/prisma/client';
import { PgSqlPool } from './pg-sql-pool';
import { PgliteSqlPool } from './pglite-sql-pool';
import { TransactionAwarePgPool, transactionAwarePglite } from './prisma-connections';
import { TransactionScope } from './transaction-scope';

export interface DatabaseOptions {
  /** PostgreSQL connection string; without it, the embedded PGlite database in `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  poolSize: number;
}

const STATEMENT_TIMEOUT_MS = 30_000;
const CONNECT_TIMEOUT_MS = 10_000;

export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl !== undefined) {
    const scope = new TransactionScope();
    const pool = new TransactionAwarePgPool(scope, {
      connectionString: options.databaseUrl,
      max: options.poolSize,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      statement_timeout: STATEMENT_TIMEOUT_MS,
      application_name: 'ledger',
    });
    // An idle connection that dies (a restarted server) must not crash the process.
    pool.on('error', () => undefined);
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    return new Database(prisma, new PgSqlPool(pool), scope);
  }
  const directory = join(options.dataDir, 'pglite');
  await mkdir(directory, { recursive: true });
  const pglite = await PGlite.create(directory, { parsers: { 20: (value: string) => BigInt(value) } });
  const scope = new TransactionScope();
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(transactionAwarePglite(pglite, scope)) });
  return new Database(prisma, new PgliteSqlPool(pglite), scope);
}
