import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database';
import { createDatabase } from './database.factory';
import { SqlArray } from './sql-array';
import { createTestDatabase, type TestDatabase } from './test-database';

// The same arrays through both drivers: in binary format to PostgreSQL, as values to PGlite.
const ID = '0192f0c1-2d3e-7f40-8a5b-6c7d8e9fa0b1';
const ROUND_TRIP = `
SELECT $1::text[] AS texts, $2::uuid[] AS ids, $3::int4[] AS ints, $4::int8[] AS bigs, $5::date[]::text[] AS dates,
       $6::bool[] AS flags, cardinality($7::text[]) AS empty,
       (SELECT array_agg(e->>'k' ORDER BY n) FROM unnest($8::text[]) WITH ORDINALITY AS j(t, n),
               LATERAL (SELECT t::jsonb AS e) AS parsed) AS json_keys`;

function arrays(): unknown[] {
  return [
    SqlArray.of('text', ['a', 'say "hi"', 'back\\slash', 'Zürich 東京 😀', '', null]),
    SqlArray.of('uuid', [ID, ID.replaceAll('-', '')]),
    SqlArray.of('int4', [1, -(2 ** 31), null]),
    SqlArray.of('int8', [2n ** 63n - 1n, -5n, null]),
    SqlArray.of('date', ['2024-02-29', '0001-01-01', '9999-12-31', null]),
    SqlArray.of('bool', [true, false, null]),
    SqlArray.of('text'),
    SqlArray.of('text', ['{"k":"x \\"y\\""}', '{"k":"z"}']),
  ];
}

const EXPECTED = {
  texts: ['a', 'say "hi"', 'back\\slash', 'Zürich 東京 😀', '', null],
  ids: [ID, ID],
  ints: [1, -(2 ** 31), null],
  bigs: ['9223372036854775807', '-5', null],
  dates: ['2024-02-29', '0001-01-01', '9999-12-31', null],
  flags: [true, false, null],
  empty: 0,
  json_keys: ['x "y"', 'z'],
};

async function roundTrip(database: Database): Promise<Record<string, unknown>> {
  const rows = await database.sql.query<Record<string, unknown>>(ROUND_TRIP, arrays());
  const row = rows[0]!;
  // The drivers differ in how they give int8 back (bigint, or text in an array): compared as text.
  return { ...row, bigs: (row.bigs as unknown[]).map((value) => (value === null ? null : String(value))) };
}

describe('SqlArray parameters', () => {
  let server: TestDatabase;
  let embedded: Database;
  let dataDir: string;

  beforeAll(async () => {
    server = await createTestDatabase(2);
    dataDir = await mkdtemp(join(tmpdir(), 'ledger-sql-array-'));
    embedded = await createDatabase({ databaseUrl: undefined, dataDir, poolSize: 1 });
  });

  afterAll(async () => {
    await server?.drop();
    await embedded?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('reach PostgreSQL in binary format with every element as it was', async () => {
    expect(await roundTrip(server.database)).toEqual(EXPECTED);
  });

  it('reach the embedded database as values, with the same outcome', async () => {
    expect(await roundTrip(embedded)).toEqual(EXPECTED);
  });

  it('are refused by PostgreSQL when cast to another element type, as a query error', async () => {
    await expect(server.database.sql.query('SELECT $1::int8[] AS a', [SqlArray.of('int4', [1])])).rejects.toThrow(
      /binary data has array element type 23/,
    );
  });
});
