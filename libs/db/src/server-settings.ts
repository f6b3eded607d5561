import type { SqlPool } from './sql-client';

/**
 * What the server's settings mean for the ledger, as lines for the operator. Without autovacuum nothing
 * vacuums the tables, and every posting leaves dead account rows behind; the serving processes still
 * analyze each table when it doubles (StatisticsKeeper), but between those analyzes the statistics lag
 * by up to half a table. Without track_counts they cannot tell a table grew at all (measured:
 * test/bench/README.md, "Statistics"). The embedded database has no autovacuum and no such concern at
 * its scale.
 */
export async function serverSettingWarnings(pool: SqlPool): Promise<string[]> {
  if (pool.driver !== 'pg') return [];
  const [row] = await pool.query<{ autovacuum: boolean }>(
    "SELECT current_setting('autovacuum')::boolean AND current_setting('track_counts')::boolean AS autovacuum",
  );
  if (row?.autovacuum !== false) return [];
  return [
    'autovacuum (or track_counts, which it needs) is off on this PostgreSQL server: nothing vacuums the ' +
      "tables, so the accounts' dead rows pile up, and the statistics fall behind the tables between the " +
      'analyzes the ledger makes when a table doubles (none at all without track_counts). ' +
      'Turn it on, or run VACUUM ANALYZE regularly.',
  ];
}
