import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newId } from '@ledger/ids';
import { openMigratedDatabase } from './open-database';
import { sqlErrorFields } from './sql-client';

// `npm start` runs on PGlite: the same migrations and the same laws must hold there.
describe('embedded PGlite database', () => {
  it('migrates, enforces the ledger laws, and keeps data across a restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'ledger-pglite-'));
    try {
      const first = await openMigratedDatabase({ databaseUrl: undefined, dataDir, poolSize: 1 });
      expect(first.applied.length).toBeGreaterThan(0);
      const tenantId = newId();
      await first.database.sql.query('INSERT INTO tenants (id, name) VALUES ($1, $2)', [tenantId, 'embedded']);
      let code: string | undefined;
      try {
        await first.database.sql.transaction('read committed', (tx) =>
          tx.query(
            `INSERT INTO transactions (tenant_id, id, status, content_hash, effective_at, actor)
             VALUES ($1, $2, 'posted', $3, now(), 'test')`,
            [tenantId, newId(), Buffer.alloc(32)],
          ),
        );
      } catch (error) {
        code = sqlErrorFields(error)?.code;
      }
      expect(code).toBe('LG001');
      const big = await first.database.sql.query<{ value: bigint }>('SELECT 9223372036854775807::int8 AS value');
      expect(big[0]!.value).toBe(2n ** 63n - 1n);
      await first.database.close();

      const second = await openMigratedDatabase({ databaseUrl: undefined, dataDir, poolSize: 1 });
      expect(second.applied).toEqual([]);
      expect(await second.database.prisma.tenant.count()).toBe(1);
      await second.database.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
