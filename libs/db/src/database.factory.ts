import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { Database } from './database';
import { PrismaClient } from './generated/prisma/client';
import { PgSqlPool } from './pg-sql-pool';
import { PgliteSqlPool } from './pglite-sql-pool';
import { TransactionAwarePgPool, transactionAwarePglite } from './prisma-connections';
import { ReadReplica, type ReadReplicaOptions } from './read-replica';
import { ReplicaMonitor } from './replica-monitor';
import { TransactionScope } from './transaction-scope';
import { parseWalPosition } from './wal-position';

export interface DatabaseOptions {
  /** PostgreSQL connection string; without it, the embedded PGlite database in `dataDir`. */
  databaseUrl: string | undefined;
  dataDir: string;
  poolSize: number;
  /** A streaming replica for read-only requests (only beside `databaseUrl`); none when not given. */
  readReplica?: ReadReplicaOptions;
}

const STATEMENT_TIMEOUT_MS = 30_000;
const CONNECT_TIMEOUT_MS = 10_000;
/**
 * How long a pooled connection may sit idle before it is closed (node-postgres closes it after 10 s by
 * default). A connection opened again costs more than its connect: the server process loads the
 * catalogue and compiles the ledger's functions and plans on its first posting: with the default, a
 * burst of 16 postings after a 15 s pause took up to 172-380 ms (test/bench/README.md, "After a
 * pause"). The pool is sized for the busiest time anyway.
 */
const IDLE_CONNECTION_MS = 5 * 60_000;
/** The replica is only an optimisation: one that does not answer soon is bypassed rather than waited for. */
const REPLICA_CONNECT_TIMEOUT_MS = 2_000;
/** The monitor's own statements (a position each): bounded, so that a hung replica is soon called down. */
const REPLICA_CHECK_TIMEOUT_MS = 2_000;
const REPLICA_MONITOR_CONNECTIONS = 2;

const PRIMARY_POSITION = 'SELECT pg_current_wal_lsn()::text AS position';

async function openReadReplica(
  primary: TransactionAwarePgPool,
  options: ReadReplicaOptions,
  poolSize: number,
): Promise<ReadReplica> {
  const connection = { connectionString: options.url, connectionTimeoutMillis: REPLICA_CONNECT_TIMEOUT_MS };
  const pool = new pg.Pool({
    ...connection,
    max: poolSize,
    idleTimeoutMillis: IDLE_CONNECTION_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    application_name: 'ledger-replica',
  });
  const monitorPool = new pg.Pool({
    ...connection,
    max: REPLICA_MONITOR_CONNECTIONS,
    query_timeout: REPLICA_CHECK_TIMEOUT_MS,
    application_name: 'ledger-replica-monitor',
  });
  // A replica that goes away is bypassed (ReplicaMonitor), never a crash.
  for (const each of [pool, monitorPool]) each.on('error', () => undefined);
  const primaryPosition = async () => {
    const { rows } = await primary.queryPrimary<{ position: string }>(PRIMARY_POSITION);
    return rows[0]!.position;
  };
  const monitor = new ReplicaMonitor(
    monitorPool,
    async () => parseWalPosition(await primaryPosition())!,
    options.lagMaxMs,
  );
  await monitor.start();
  const replica = new ReadReplica(pool, monitor, options.consistencyWaitMs, primaryPosition);
  primary.routeReadsTo(replica);
  return replica;
}

export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl !== undefined) {
    const scope = new TransactionScope();
    const pool = new TransactionAwarePgPool(scope, {
      connectionString: options.databaseUrl,
      max: options.poolSize,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      idleTimeoutMillis: IDLE_CONNECTION_MS,
      statement_timeout: STATEMENT_TIMEOUT_MS,
      application_name: 'ledger',
      // A statement called while the one before it is still running is written at once, not after its
      // answer: a transaction's statements that do not wait on each other share a round trip (see
      // awaitedLater). The server still runs them one after the other, in order.
      pipeline: true,
    });
    // An idle connection that dies (a restarted server) must not crash the process.
    pool.on('error', () => undefined);
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    const replica =
      options.readReplica === undefined
        ? undefined
        : await openReadReplica(pool, options.readReplica, options.poolSize);
    return new Database(prisma, new PgSqlPool(pool), scope, replica);
  }
  if (options.readReplica !== undefined) throw new Error('a read replica needs a PostgreSQL primary (DATABASE_URL)');
  const directory = join(options.dataDir, 'pglite');
  await mkdir(directory, { recursive: true });
  const pglite = await PGlite.create(directory, { parsers: { 20: (value: string) => BigInt(value) } });
  const scope = new TransactionScope();
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(transactionAwarePglite(pglite, scope)) });
  return new Database(prisma, new PgliteSqlPool(pglite), scope);
}
