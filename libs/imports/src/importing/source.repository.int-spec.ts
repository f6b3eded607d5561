import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, createTestDatabase, openMigratedDatabase } from '@ledger/db';
import { newId } from '@ledger/ids';
import { describe, expect, it } from 'vitest';
import { BANK_CSV_PROFILE } from '../csv/csv-profile';
import { SourceRepository } from './source.repository';

async function tenantWithAccount(database: Database): Promise<{ tenantId: string; accountId: string }> {
  const [tenantId, accountId] = [newId(), newId()];
  await database.sql.query('INSERT INTO tenants (id, name) VALUES ($1, $2)', [tenantId, 'sources']);
  await database.sql.query(
    `INSERT INTO accounts (tenant_id, id, code, currency, normal_balance, allow_negative)
     VALUES ($1, $2, 'assets:bank', 'EUR', 'debit', false)`,
    [tenantId, accountId],
  );
  return { tenantId, accountId };
}

// Sources and CSV profiles are written with single Prisma queries in the use case's (ambient)
// transaction: no query may open a transaction of its own there, and a duplicate name must leave the
// transaction usable (the idempotency interceptor still stores the answer in it).
async function expectWritesInTheAmbientTransaction(database: Database): Promise<void> {
  const sources = new SourceRepository(database);
  const { tenantId, accountId } = await tenantWithAccount(database);
  const source = { name: 'bank', accountId, format: 'camt053', charset: null };
  const createdAt = await database.transaction('read committed', async () => {
    const first = await sources.insert(tenantId, { id: newId(), ...source });
    expect(await sources.insert(tenantId, { id: newId(), ...source })).toBeUndefined();
    await sources.saveCsvProfile(tenantId, 'mine', BANK_CSV_PROFILE);
    await sources.saveCsvProfile(tenantId, 'mine', { ...BANK_CSV_PROFILE, delimiter: ';' });
    return first;
  });
  expect(createdAt).toBeInstanceOf(Date);
  expect(await sources.findByName(tenantId, 'bank')).toMatchObject({ ...source, createdAt });
  expect(await sources.findCsvProfile(tenantId, 'mine')).toMatchObject({ delimiter: ';' });
  expect(await sources.findCsvProfile(tenantId, 'other')).toBeUndefined();

  await expect(
    database.transaction('read committed', async () => {
      await sources.saveCsvProfile(tenantId, 'rolled-back', BANK_CSV_PROFILE);
      throw new Error('roll back');
    }),
  ).rejects.toThrow('roll back');
  expect(await sources.findCsvProfile(tenantId, 'rolled-back')).toBeUndefined();
}

describe('statement sources and CSV profiles', () => {
  it('are written in the ambient transaction on PostgreSQL', async () => {
    const test = await createTestDatabase(4);
    try {
      await expectWritesInTheAmbientTransaction(test.database);
    } finally {
      await test.drop();
    }
  });

  it('and on the embedded database, which has one connection', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ledger-sources-'));
    const { database } = await openMigratedDatabase({ databaseUrl: undefined, dataDir, poolSize: 1 });
    try {
      await expectWritesInTheAmbientTransaction(database);
    } finally {
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
