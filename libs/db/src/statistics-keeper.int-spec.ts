import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ANALYZE_ROWS_MIN, StatisticsKeeper } from './statistics-keeper';
import { type TestDatabase, createTestDatabase } from './test-database';

const LOCK_KEY = "hashtextextended('ledger:analyze-grown-tables', 0)";

let server: TestDatabase;
let keeper: StatisticsKeeper;

/** Rows added on a connection that then ends: a backend reports its counts to the statistics when it exits. */
async function addRows(count: number): Promise<void> {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    await client.query('INSERT INTO keeper_probe (n) SELECT g FROM generate_series(1, $1::int) AS g', [count]);
  } finally {
    await client.end();
  }
}

/** The live rows the statistics count, once they have caught up with `expected`. */
async function counted(expected: number): Promise<void> {
  await vi.waitFor(
    async () => {
      const [row] = await server.database.sql.query<{ live: string }>(
        "SELECT n_live_tup::text AS live FROM pg_stat_user_tables WHERE relname = 'keeper_probe'",
      );
      expect(Number(row?.live)).toBe(expected);
    },
    { timeout: 20_000, interval: 100 },
  );
}

async function plannerRows(): Promise<number> {
  const [row] = await server.database.sql.query<{ rows: number }>(
    "SELECT reltuples::float8 AS rows FROM pg_class WHERE relname = 'keeper_probe'",
  );
  return row!.rows;
}

beforeAll(async () => {
  server = await createTestDatabase(2);
  await server.database.sql.query('CREATE TABLE keeper_probe (n int NOT NULL)');
  // Checks run only when the test calls them: the interval is longer than the file.
  keeper = StatisticsKeeper.start(server.url, 3_600_000);
  await keeper.check();
});

afterAll(async () => {
  await keeper.stop();
  await server.drop();
});

describe('StatisticsKeeper', () => {
  it('analyzes a table once it holds enough rows, then again only when it has doubled', async () => {
    await addRows(ANALYZE_ROWS_MIN - 1);
    await counted(ANALYZE_ROWS_MIN - 1);
    expect(await keeper.check()).not.toContain('keeper_probe');
    expect(await plannerRows()).toBe(-1);

    await addRows(1);
    await counted(ANALYZE_ROWS_MIN);
    expect(await keeper.check()).toContain('keeper_probe');
    expect(await plannerRows()).toBe(ANALYZE_ROWS_MIN);
    expect(await keeper.check()).not.toContain('keeper_probe');

    await addRows(ANALYZE_ROWS_MIN);
    await counted(2 * ANALYZE_ROWS_MIN);
    expect(await keeper.check()).not.toContain('keeper_probe');

    await addRows(1);
    await counted(2 * ANALYZE_ROWS_MIN + 1);
    expect(await keeper.check()).toContain('keeper_probe');
    expect(await plannerRows()).toBe(2 * ANALYZE_ROWS_MIN + 1);
  });

  it('skips its turn while another process is analyzing, and catches up at the next', async () => {
    await addRows(10 * ANALYZE_ROWS_MIN);
    await counted(12 * ANALYZE_ROWS_MIN + 1);
    const other = new pg.Client({ connectionString: server.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(`SELECT pg_advisory_xact_lock(${LOCK_KEY})`);
      expect(await keeper.check()).toEqual([]);
      await other.query('COMMIT');
    } finally {
      await other.end();
    }
    expect(await keeper.check()).toContain('keeper_probe');
    expect(await plannerRows()).toBe(12 * ANALYZE_ROWS_MIN + 1);
  });

  it('leaves the tables its role may not analyze alone, instead of naming them at every check', async () => {
    const role = `keeper_guest_${randomBytes(4).toString('hex')}`;
    await server.database.sql.query(`CREATE ROLE ${role} LOGIN`);
    const url = new URL(server.url);
    url.username = role;
    const guest = StatisticsKeeper.start(url.toString(), 3_600_000);
    try {
      await addRows(13 * ANALYZE_ROWS_MIN);
      await counted(25 * ANALYZE_ROWS_MIN + 1);
      expect(await guest.check()).not.toContain('keeper_probe');
      expect(await plannerRows()).toBe(12 * ANALYZE_ROWS_MIN + 1);
      expect(await keeper.check()).toContain('keeper_probe');
    } finally {
      await guest.stop();
      await server.database.sql.query(`DROP ROLE ${role}`);
    }
  });

  it('answers no tables, without throwing, while the database cannot be reached, and stops cleanly', async () => {
    const unreachable = StatisticsKeeper.start('postgresql://postgres@127.0.0.1:1/none', 3_600_000);
    expect(await unreachable.check()).toEqual([]);
    await unreachable.stop();
  });
});
