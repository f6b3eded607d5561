import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@ledger/ids';
import type { Database } from './database';
import { openMigratedDatabase } from './open-database';
import { sql } from './sql-statement';
import { type TestDatabase, createTestDatabase } from './test-database';

const INSERT_TENANT = sql<{ id: string; name: string }>('INSERT INTO tenants (id, name) VALUES (:id, :name)');
const TENANT_NAMES = sql<{ ids: string[] }, { name: string }>(
  'SELECT name FROM tenants WHERE id = ANY(:ids::uuid[]) ORDER BY name',
);

// One transaction style: Prisma Client's queries inside Database.transaction run on its connection.
async function expectOneUnitOfWork(database: Database): Promise<void> {
  const [sqlTenant, prismaTenant] = [newId(), newId()];
  await expect(
    database.transaction('read committed', async () => {
      await database.query(INSERT_TENANT, { id: sqlTenant, name: 'by sql' });
      await database.prisma.tenant.create({ data: { id: prismaTenant, name: 'by prisma' } });
      // Each sees the other's uncommitted row: they share the transaction.
      expect(await database.prisma.tenant.count({ where: { id: { in: [sqlTenant, prismaTenant] } } })).toBe(2);
      expect(await database.query(TENANT_NAMES, { ids: [sqlTenant, prismaTenant] })).toHaveLength(2);
      throw new Error('roll back');
    }),
  ).rejects.toThrow('roll back');
  expect(await database.query(TENANT_NAMES, { ids: [sqlTenant, prismaTenant] })).toEqual([]);

  await database.transaction('read committed', async () => {
    await database.query(INSERT_TENANT, { id: sqlTenant, name: 'by sql' });
    await database.prisma.tenant.create({ data: { id: prismaTenant, name: 'by prisma' } });
  });
  expect(await database.query(TENANT_NAMES, { ids: [sqlTenant, prismaTenant] })).toEqual([
    { name: 'by prisma' },
    { name: 'by sql' },
  ]);
  // A Prisma transaction of its own inside ours would run on another connection: refused loudly.
  await expect(
    database.transaction('read committed', () => database.prisma.$transaction(() => database.prisma.tenant.count())),
  ).rejects.toThrow(/transaction of its own/);
}

describe('Prisma Client inside Database.transaction', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase(4);
  });
  afterAll(async () => {
    await test.drop();
  });

  it('commits and rolls back with the SQL statements on PostgreSQL', async () => {
    await expectOneUnitOfWork(test.database);
  });

  it('does the same on the embedded database, which has one connection', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ledger-ambient-'));
    const { database } = await openMigratedDatabase({ databaseUrl: undefined, dataDir, poolSize: 1 });
    try {
      await expectOneUnitOfWork(database);
    } finally {
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
