import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MigrationError, applyMigrations } from './migration-runner';
import { type TestDatabase, createTestDatabase } from './test-database';

describe('migration runner', () => {
  let test: TestDatabase;
  let directory: string;

  beforeAll(async () => {
    test = await createTestDatabase(4);
    directory = await mkdtemp(join(tmpdir(), 'migrations-'));
    await mkdir(join(directory, '20990101000000_extra'));
    await writeFile(
      join(directory, '20990101000000_extra', 'migration.sql'),
      'CREATE TABLE extra_one (id int); CREATE TABLE extra_two (id int);',
    );
  });
  afterAll(async () => {
    await test.drop();
  });

  it('applies a pending migration once, records it as Prisma does, and skips it afterwards', async () => {
    expect(await applyMigrations(test.database.sql, directory)).toEqual(['20990101000000_extra']);
    expect(await applyMigrations(test.database.sql, directory)).toEqual([]);
    const rows = await test.database.sql.query<{
      migration_name: string;
      checksum: string;
      applied_steps_count: number;
      finished: boolean;
    }>(
      `SELECT migration_name, checksum, applied_steps_count, finished_at IS NOT NULL AS finished
         FROM _prisma_migrations WHERE migration_name = '20990101000000_extra'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ applied_steps_count: 1, finished: true });
    expect(rows[0]!.checksum).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses to run when an applied migration was edited afterwards', async () => {
    await writeFile(join(directory, '20990101000000_extra', 'migration.sql'), 'CREATE TABLE extra_one (id bigint);');
    await expect(applyMigrations(test.database.sql, directory)).rejects.toThrow(MigrationError);
  });

  it('applies nothing of a migration that fails half way', async () => {
    await mkdir(join(directory, '20990102000000_broken'));
    await writeFile(
      join(directory, '20990102000000_broken', 'migration.sql'),
      'CREATE TABLE half_done (id int); SELECT no_such_function();',
    );
    await writeFile(
      join(directory, '20990101000000_extra', 'migration.sql'),
      'CREATE TABLE extra_one (id int); CREATE TABLE extra_two (id int);',
    );
    await expect(applyMigrations(test.database.sql, directory)).rejects.toThrow();
    const tables = await test.database.sql.query<{ n: bigint }>(
      `SELECT count(*)::int8 AS n FROM pg_tables WHERE tablename = 'half_done'`,
    );
    expect(tables[0]!.n).toBe(0n);
  });
});
