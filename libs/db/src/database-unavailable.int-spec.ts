import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database';
import { createDatabase } from './database.factory';
import { isDatabaseUnavailable } from './database-unavailable';
import { freePort } from '../../../test/support/free-port';
import { type TestDatabase, createTestDatabase } from './test-database';
import { sql } from './sql-statement';

async function rejection(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

let down: Database;
let up: TestDatabase;

beforeAll(async () => {
  // A loopback port with nothing listening: what a stopped server looks like to its clients.
  down = await createDatabase({
    databaseUrl: `postgresql://postgres@127.0.0.1:${await freePort()}/ledger`,
    dataDir: '',
    poolSize: 2,
  });
  up = await createTestDatabase(2);
});

afterAll(async () => {
  await down.close();
  await up.drop();
});

describe('isDatabaseUnavailable, on the errors the real clients raise', () => {
  it('is true for a server that does not listen, through the SQL pool, a transaction and Prisma Client', async () => {
    expect(isDatabaseUnavailable(await rejection(() => down.sql.query('SELECT 1')))).toBe(true);
    expect(
      isDatabaseUnavailable(
        await rejection(() => down.transaction('read committed', () => down.query(sql('SELECT 1')))),
      ),
    ).toBe(true);
    expect(isDatabaseUnavailable(await rejection(() => down.prisma.tenant.count()))).toBe(true);
  });

  it(
    'is true for a connection the server terminates (57P01), and the ' +
      'connection lost inside a transaction does not end the process',
    async () => {
      const error = await rejection(() =>
        up.database.transaction('read committed', async () => {
          await up.database.query(sql('SELECT pg_terminate_backend(pg_backend_pid())'));
        }),
      );
      expect(isDatabaseUnavailable(error)).toBe(true);
    },
  );

  it(
    "is true for Prisma Client's wrapping of a server that " + 'is going away (57P01 inside a driver adapter error)',
    async () => {
      const error = await rejection(() =>
        up.database.prisma.$queryRawUnsafe('SELECT pg_terminate_backend(pg_backend_pid())'),
      );
      expect(isDatabaseUnavailable(error)).toBe(true);
    },
  );

  it('is false for a request the database refuses on its merits', async () => {
    expect(isDatabaseUnavailable(await rejection(() => up.database.sql.query('SELECT * FROM no_such_table')))).toBe(
      false,
    );
    expect(isDatabaseUnavailable(await rejection(() => up.database.sql.query('SELECT 1/0')))).toBe(false);
    expect(isDatabaseUnavailable(await rejection(() => up.database.prisma.$queryRawUnsafe('SELECT 1/0')))).toBe(false);
    expect(isDatabaseUnavailable(new Error('Connection lost? no: a plain error'))).toBe(false);
  });
});
