import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import type { BenchConfig } from './bench-config';
import { benchPool, dropDatabase, recreateDatabase } from './bench-database';
import { type InProcessLedger, openInProcessLedger } from './in-process-ledger';

/**
 * What the import and reconcile suites run on: a fresh database, the ledger in this process, a baseline
 * connection, a scratch folder.
 */
export interface InProcessSuite {
  databaseName: string;
  ledger: InProcessLedger;
  /** The plain SQL baseline's one connection. */
  baselinePool: pg.Pool;
  /** Generated statement files; removed with everything else. */
  directory: string;
}

/**
 * Runs `work` on a suite of its own (database `<BENCH_DATABASE>_<suffix>`), and takes it all down
 * afterwards, whatever happens.
 */
export async function withInProcessSuite<T>(
  config: BenchConfig,
  suffix: string,
  work: (suite: InProcessSuite) => Promise<T>,
): Promise<T> {
  const databaseName = `${config.databaseName}_${suffix}`;
  const databaseUrl = await recreateDatabase(config.adminDatabaseUrl, databaseName);
  const ledger = await openInProcessLedger(databaseUrl);
  const baselinePool = benchPool(databaseUrl, 1, 'ledger-bench-sql');
  const directory = await mkdtemp(join(tmpdir(), `${suffix}-bench-`));
  try {
    return await work({ databaseName, ledger, baselinePool, directory });
  } finally {
    await rm(directory, { recursive: true, force: true });
    await baselinePool.end();
    await ledger.close();
    if (!config.keepDatabases) await dropDatabase(config.adminDatabaseUrl, databaseName);
  }
}
