import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SqlPool, SqlTransaction } from './sql-client';

// Recorded exactly as Prisma Migrate records migrations, so `prisma migrate deploy` stays usable.
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum"            VARCHAR(64) NOT NULL,
  "finished_at"         TIMESTAMPTZ,
  "migration_name"      VARCHAR(255) NOT NULL,
  "logs"                TEXT,
  "rolled_back_at"      TIMESTAMPTZ,
  "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/** Any constant: every process that migrates takes this lock, so they never migrate at once. */
const MIGRATION_LOCK_KEY = 72707369;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {}

export async function readMigrations(directory: string): Promise<Migration[]> {
  const names = (await readdir(directory, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(join(directory, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

async function appliedChecksums(tx: SqlTransaction): Promise<Map<string, string>> {
  const rows = await tx.query<{ migration_name: string; checksum: string }>(
    `SELECT migration_name, checksum FROM "_prisma_migrations"
      WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  return new Map(rows.map((row) => [row.migration_name, row.checksum]));
}

/** Applies each pending migration in its own transaction; returns the names applied. */
export async function applyMigrations(pool: SqlPool, directory: string): Promise<string[]> {
  const migrations = await readMigrations(directory);
  const applied: string[] = [];
  for (const migration of migrations) {
    const ran = await pool.transaction('read committed', async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      await tx.execScript(CREATE_MIGRATIONS_TABLE);
      const done = await appliedChecksums(tx);
      const recorded = done.get(migration.name);
      if (recorded !== undefined) {
        if (recorded !== migration.checksum) {
          throw new MigrationError(`migration ${migration.name} was changed after it was applied`);
        }
        return false;
      }
      await tx.execScript(migration.sql);
      await tx.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
         VALUES ($1, $2, $3, now(), clock_timestamp(), 1)`,
        [randomUUID(), migration.checksum, migration.name],
      );
      return true;
    });
    if (ran) applied.push(migration.name);
  }
  return applied;
}
