import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type TestDatabase, createTestDatabase, openMigratedDatabase } from '@ledger/db';
import { newId } from '@ledger/ids';
import { InboundSourceRepository } from './inbound-source.repository';

const SECRET = 'whsec_0123456789abcdef0123456789abcdef';

// A taken name must not fail a statement: the request's transaction (the idempotency interceptor's)
// goes on to store the refusal, which it could not do in an aborted transaction.
async function expectTakenNameToKeepTheTransaction(database: Database): Promise<void> {
  const tenantId = newId();
  await database.sql.query('INSERT INTO tenants (id, name) VALUES ($1, $2)', [tenantId, 'inbox test']);
  const sources = new InboundSourceRepository(database);
  const source = (name: string) => ({ tenantId, id: newId(), name, secret: SECRET, mappings: {} });
  const listed = await database.transaction('read committed', async () => {
    const first = await sources.create(source('gateway'));
    expect(first).toMatchObject({ tenantId, name: 'gateway', mappings: {} });
    expect(await sources.create(source('gateway'))).toBeUndefined();
    await sources.create(source('another'));
    return sources.list(tenantId, 10);
  });
  expect(listed.map((row) => row.name)).toEqual(['another', 'gateway']);
  const found = await sources.findWithSecret(listed[1]!.id);
  expect(found).toMatchObject({ tenantId, name: 'gateway', secret: SECRET });
}

describe('InboundSourceRepository', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase(4);
  });
  afterAll(async () => {
    await test.drop();
  });

  it('refuses a taken name without failing the transaction, on PostgreSQL', async () => {
    await expectTakenNameToKeepTheTransaction(test.database);
  });

  it('does the same on the embedded database', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ledger-inbox-'));
    const { database } = await openMigratedDatabase({ databaseUrl: undefined, dataDir, poolSize: 1 });
    try {
      await expectTakenNameToKeepTheTransaction(database);
    } finally {
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
