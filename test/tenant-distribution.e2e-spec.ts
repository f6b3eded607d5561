import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import { type TestTenant, createAccount, seededTenant, sqlRows, transfer } from './support/ledger-fixtures';

// Every table can be distributed by tenant_id (Citus: hash-distributed and co-located), and the posting
// path never needs a statement that spans two tenants' shards. Read from the migrated schema itself, so
// a new table or constraint that breaks either fails here (README: Scaling out).

/** Small tables every shard may need whole (Citus reference tables): no tenant_id of their own. */
const REFERENCE_TABLES = ['tenants'];
/** Bookkeeping of the migration runner: stays on the coordinator, never joined with tenant data. */
const LOCAL_TABLES = ['_prisma_migrations'];

/** The tables the posting path writes (single postings, batches, holds and their resolution, reversals). */
const POSTING_TABLES = [
  'accounts',
  'transactions',
  'entries',
  'open_holds',
  'journal_heads',
  'journal_links',
  'idempotency_keys',
  'outbox_events',
];

let api: ApiHarness;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api?.close();
});

interface ConstraintRow {
  table_name: string;
  name: string;
  kind: string;
  definition: string;
  has_tenant: boolean;
  referenced_table: string | null;
  tenant_to_tenant: boolean | null;
}

// For a foreign key, tenant_to_tenant: some column pair maps tenant_id to tenant_id.
const CONSTRAINTS = `
SELECT c.relname AS table_name, con.conname AS name, con.contype::text AS kind,
       pg_get_constraintdef(con.oid) AS definition,
       EXISTS (SELECT 1 FROM unnest(con.conkey) k JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k
                WHERE a.attname = 'tenant_id') AS has_tenant,
       r.relname AS referenced_table,
       CASE WHEN con.contype = 'f' THEN EXISTS (
         SELECT 1 FROM unnest(con.conkey, con.confkey) AS p(local, remote)
           JOIN pg_attribute la ON la.attrelid = con.conrelid AND la.attnum = p.local
           JOIN pg_attribute ra ON ra.attrelid = con.confrelid AND ra.attnum = p.remote
          WHERE la.attname = 'tenant_id' AND ra.attname = 'tenant_id') END AS tenant_to_tenant
  FROM pg_constraint con
  JOIN pg_class c ON c.oid = con.conrelid
  JOIN pg_namespace n ON n.oid = c.relnamespace
  LEFT JOIN pg_class r ON r.oid = con.confrelid
 WHERE n.nspname = 'public' AND con.contype IN ('p', 'u', 'f', 'x')
 ORDER BY 1, 2`;

const UNIQUE_INDEXES_WITHOUT_TENANT = `
SELECT c.relname AS table_name, i.indexrelid::regclass::text AS index_name
  FROM pg_index i
  JOIN pg_class c ON c.oid = i.indrelid
  JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = 'public' AND i.indisunique
   AND NOT EXISTS (SELECT 1 FROM unnest(i.indkey) k JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k
                    WHERE a.attname = 'tenant_id')`;

const TABLES = `
SELECT c.relname AS table_name,
       EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped)
         AS has_tenant
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
 ORDER BY 1`;

/** Statement-level guards: a statement whose rows belong to more than one tenant is refused. */
function guardStatements(table: string): string[] {
  const guard = (event: string, referencing: string, rows: string) => `
    CREATE TRIGGER one_tenant_per_${event.toLowerCase()} AFTER ${event} ON ${table}
      REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION test_one_tenant_per_statement('${rows}')`;
  return [
    guard('INSERT', 'NEW TABLE AS new_rows', 'new'),
    guard('UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows', 'new'),
    guard('DELETE', 'OLD TABLE AS old_rows', 'old'),
  ];
}

const GUARD_FUNCTION = `
CREATE FUNCTION test_one_tenant_per_statement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tenants int;
BEGIN
  IF TG_ARGV[0] = 'old' THEN
    SELECT count(DISTINCT tenant_id) INTO tenants FROM old_rows;
  ELSE
    SELECT count(DISTINCT tenant_id) INTO tenants FROM new_rows;
  END IF;
  IF tenants > 1 THEN
    RAISE EXCEPTION 'one % statement on % wrote rows of % tenants', TG_OP, TG_TABLE_NAME, tenants;
  END IF;
  RETURN NULL;
END $$`;

async function fundedTenant(name: string): Promise<TestTenant> {
  const tenant = await seededTenant(api, name);
  for (const code of ['assets:wallet', 'income:shop'])
    await createAccount(api, tenant.adminKey, {
      code,
      currency: 'USD',
      normalBalance: code.startsWith('assets') ? 'debit' : 'credit',
    });
  return tenant;
}

function post(tenant: TestTenant, path: string, body: unknown) {
  return api.request('POST', path, { key: tenant.posterKey, idempotencyKey: randomUUID(), body });
}

/** One tenant's share of the load: singles, a batch, a hold posted and one voided, a reversal. */
async function postingLoad(tenant: TestTenant, rounds: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const single = await post(tenant, '/v1/transactions', transfer('assets:wallet', 'income:shop', '100'));
    statuses.push(single.status);
    const batch = await post(tenant, '/v1/transactions/batch', {
      transactions: [transfer('assets:wallet', 'income:shop', '200'), transfer('assets:wallet', 'equity:seed', '300')],
    });
    statuses.push(batch.status);
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const holds = await Promise.all(
      [0, 1].map(() =>
        post(tenant, '/v1/transactions', {
          ...transfer('assets:wallet', 'income:shop', '400'),
          pending: { expiresAt },
        }),
      ),
    );
    statuses.push(...holds.map((hold) => hold.status));
    statuses.push((await post(tenant, `/v1/transactions/${holds[0]!.body.id}/post`, {})).status);
    statuses.push((await post(tenant, `/v1/transactions/${holds[1]!.body.id}/void`, {})).status);
    statuses.push((await post(tenant, `/v1/transactions/${single.body.id}/reverse`, {})).status);
  }
  return statuses;
}

describe('tables ready to be distributed by tenant_id', () => {
  it('every table has tenant_id, or is named a reference or local table', async () => {
    const tables = await sqlRows<{ table_name: string; has_tenant: boolean }>(api, TABLES);
    const without = tables.filter((table) => !table.has_tenant).map((table) => table.table_name);
    expect(without.sort()).toEqual([...REFERENCE_TABLES, ...LOCAL_TABLES].sort());
    expect(tables.length).toBeGreaterThan(20);
  });

  it('every key, unique constraint and index of a distributed table includes tenant_id', async () => {
    const distributedOnly = (name: string) => ![...REFERENCE_TABLES, ...LOCAL_TABLES].includes(name);
    const constraints = (await sqlRows<ConstraintRow>(api, CONSTRAINTS)).filter((row) =>
      distributedOnly(row.table_name),
    );
    const missing = constraints.filter((row) => row.kind !== 'f' && !row.has_tenant);
    expect(missing.map((row) => `${row.table_name}.${row.name}: ${row.definition}`)).toEqual([]);
    expect(constraints.filter((row) => row.kind === 'p')).toHaveLength(
      (await sqlRows(api, TABLES)).length - REFERENCE_TABLES.length - LOCAL_TABLES.length,
    );
    const indexes = await sqlRows<{ table_name: string; index_name: string }>(api, UNIQUE_INDEXES_WITHOUT_TENANT);
    expect(indexes.filter((row) => distributedOnly(row.table_name))).toEqual([]);
  });

  it('a foreign key between distributed tables joins on tenant_id; others point at reference tables', async () => {
    const keys = (await sqlRows<ConstraintRow>(api, CONSTRAINTS)).filter((row) => row.kind === 'f');
    expect(keys.length).toBeGreaterThan(10);
    const wrong = keys.filter((key) =>
      REFERENCE_TABLES.includes(key.referenced_table ?? '') ? !key.has_tenant : !key.tenant_to_tenant,
    );
    expect(wrong.map((key) => `${key.table_name}.${key.name}: ${key.definition}`)).toEqual([]);
    // A reference table never points at a distributed one (Citus refuses that foreign key).
    expect(keys.filter((key) => REFERENCE_TABLES.includes(key.table_name))).toEqual([]);
  });
});

describe('the posting path, two tenants at once', () => {
  it('writes no statement whose rows belong to two tenants', async () => {
    const tenants = [await fundedTenant('shard one'), await fundedTenant('shard two')];
    const rows = await sqlRows<{ table_name: string }>(
      api,
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name = ANY($1)`,
      [POSTING_TABLES],
    );
    expect(rows.map((row) => row.table_name).sort()).toEqual([...POSTING_TABLES].sort());
    const sql = api.db.database.sql;
    await sql.query(GUARD_FUNCTION);
    for (const table of POSTING_TABLES) for (const statement of guardStatements(table)) await sql.query(statement);

    // The guard works: one statement inserting two tenants' rows is refused.
    await expect(
      sql.query(
        `INSERT INTO outbox_events (tenant_id, id, type, aggregate_type, aggregate_id, aggregate_version, data)
         SELECT t, gen_random_uuid(), 'test.guard', 'test', gen_random_uuid(), 1, '{}' FROM unnest($1::uuid[]) t`,
        [tenants.map((tenant) => tenant.tenantId)],
      ),
    ).rejects.toThrow(/wrote rows of 2 tenants/);

    const statuses = (await Promise.all(tenants.flatMap((tenant) => [0, 1].map(() => postingLoad(tenant, 5))))).flat();
    expect(statuses.filter((status) => status !== 201 && status !== 200)).toEqual([]);
    const counts = await sqlRows<{ tenant_id: string; transactions: number }>(
      api,
      'SELECT tenant_id, count(*)::int AS transactions FROM transactions WHERE tenant_id = ANY($1) GROUP BY 1',
      [tenants.map((tenant) => tenant.tenantId)],
    );
    // Per tenant: 2 loads x 5 rounds x (1 single, 2 batch items, 2 holds, their capture and void, 1 reversal).
    expect(counts.map((row) => row.transactions)).toEqual([80, 80]);
  });
});
