import type { SqlPool } from './sql-client';

/**
 * What the server's settings mean for the ledger, as lines for the operator. Without autovacuum the
 * tables are never analyzed, and PostgreSQL plans the posting statements as if each tenant had a handful
 * of accounts: every write then reads all the tenant's accounts (measured: test/bench/README.md,
 * "Statistics"). The embedded database has no autovacuum and no such concern at its scale.
 */
export async function serverSettingWarnings(pool: SqlPool): Promise<string[]> {
  if (pool.driver !== 'pg') return [];
  const [row] = await pool.query<{ autovacuum: boolean }>(
    "SELECT current_setting('autovacuum')::boolean AND current_setting('track_counts')::boolean AS autovacuum",
  );
  if (row?.autovacuum !== false) return [];
  return [
    'autovacuum (or track_counts, which it needs) is off on this PostgreSQL server, so its tables are never ' +
      "analyzed: postings slow down as accounts grow (each write reads all of a tenant's accounts). " +
      'Turn it on, or run ANALYZE regularly.',
  ];
}
