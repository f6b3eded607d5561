import { createDatabase, type DatabaseOptions } from './database.factory';
import type { Database } from './database';
import { applyMigrations } from './migration-runner';
import { migrationsDirectory } from './migrations-directory';

/** The database every process starts from: connected, and migrated to this build's schema. */
export async function openMigratedDatabase(
  options: DatabaseOptions,
): Promise<{ database: Database; applied: string[] }> {
  const database = await createDatabase(options);
  try {
    const applied = await applyMigrations(database.sql, migrationsDirectory());
    return { database, applied };
  } catch (error) {
    await database.close();
    throw error;
  }
}
