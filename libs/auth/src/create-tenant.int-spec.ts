import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestDatabase, createTestDatabase } from '@ledger/db';
import { ApiKeyRepository } from './api-key.repository';
import { CreateTenantUseCase } from './create-tenant.use-case';
import { TenantRepository } from './tenant.repository';

describe('CreateTenantUseCase through Prisma Client', () => {
  let test: TestDatabase;
  let createTenant: CreateTenantUseCase;
  beforeAll(async () => {
    test = await createTestDatabase(4);
    const db = test.database;
    createTenant = new CreateTenantUseCase(db, new TenantRepository(db), new ApiKeyRepository(db));
  });
  afterAll(async () => {
    await test.drop();
  });

  const rowsOf = async (tenantId: string) => {
    const tenants = await test.database.sql.query('SELECT id FROM tenants WHERE id = $1', [tenantId]);
    const keys = await test.database.sql.query('SELECT id FROM api_keys WHERE tenant_id = $1', [tenantId]);
    return { tenants: tenants.length, keys: keys.length };
  };

  it('writes the tenant and its key in the enclosing transaction: both roll back with it', async () => {
    let tenantId = '';
    await expect(
      test.database.transaction('read committed', async () => {
        tenantId = (await createTenant.execute({ name: 'rolled back' })).tenant.id;
        expect(await test.database.prisma.apiKey.count({ where: { tenantId } })).toBe(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await rowsOf(tenantId)).toEqual({ tenants: 0, keys: 0 });
  });

  it("stamps the rows with the transaction's time, as the SQL defaults do", async () => {
    const { tenant, startedAt } = await test.database.transaction('read committed', async () => {
      const created = await createTenant.execute({ name: 'stamped' });
      const [now] = await test.database.sql.query<{ now: Date }>('SELECT now()');
      return { tenant: created.tenant, startedAt: now!.now };
    });
    const [row] = await test.database.sql.query<{ tenant: Date; key: Date }>(
      `SELECT t.created_at AS tenant, k.created_at AS key
         FROM tenants t JOIN api_keys k ON k.tenant_id = t.id WHERE t.id = $1`,
      [tenant.id],
    );
    expect(row).toEqual({ tenant: startedAt, key: startedAt });
  });
});
