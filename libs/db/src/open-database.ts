import { createDatabase, type DatabaseOptions } from './database.factory';
import type { Database } from './database';
import { applyMigrations } from './migration-runner';
import { migrationsDirectory } from './migrations-directory';
import { serverSettingWarnings } from './server-settings';

/**
 * The database every process starts from: connected, and migrated to this build's schema; `warnings`
 * are what the server's settings mean for the ledger, for the process to print (see serverSettingWarnings).
 */
export async function openMigratedDatabase(
  options: DatabaseOptions,
): Promise<{ database: Database; applied: string[]; warnings: string[] }> {
  const database = await createDatabase(options);
  try {
    const applied = await applyMigrations(database.sql, migrationsDirectory());
    return { database, applied, warnings: await serverSettingWarnings(database.sql) };
  } catch (error) {
    await database.close();
    throw error;
  }
}
