import { createDatabase, type DatabaseOptions } from './database.factory';
import type { Database } from './database';
import { applyMigrations } from './migration-runner';
import { migrationsDirectory } from './migrations-directory';
import { serverSettingWarnings } from './server-settings';
import { StatisticsKeeper } from './statistics-keeper';

export interface OpenDatabaseOptions extends DatabaseOptions {
  /**
   * How often to analyze the tables that doubled since their last analyze (StatisticsKeeper); 0 or not
   * given: never. The processes that serve set it (LEDGER_ANALYZE_CHECK_SECONDS); tools and tests do not.
   * PostgreSQL only: the embedded database has one connection, and no such concern at its scale.
   */
  analyzeCheckMs?: number;
}

/**
 * The database every process starts from: connected, and migrated to this build's schema; `warnings`
 * are what the server's settings mean for the ledger, for the process to print (see serverSettingWarnings).
 */
export async function openMigratedDatabase(
  options: OpenDatabaseOptions,
): Promise<{ database: Database; applied: string[]; warnings: string[] }> {
  const database = await createDatabase(options);
  try {
    const applied = await applyMigrations(database.sql, migrationsDirectory());
    const warnings = await serverSettingWarnings(database.sql);
    if (options.databaseUrl !== undefined && options.analyzeCheckMs)
      database.keepStatisticsWith(StatisticsKeeper.start(options.databaseUrl, options.analyzeCheckMs));
    return { database, applied, warnings };
  } catch (error) {
    await database.close();
    throw error;
  }
}
