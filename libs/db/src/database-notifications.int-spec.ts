import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgliteSqlPool } from './pglite-sql-pool';
import type { SqlPool } from './sql-client';
import { sql } from './sql-statement';
import { type TestDatabase, createTestDatabase } from './test-database';

const INSERT_MARK = sql<{ id: number }>('INSERT INTO marks VALUES (:id)');

/** Resolves when `heard` is called, fails the test if it never is (a bound on a failure, not a timing). */
function hearing(): { heard: () => void; wait: () => Promise<void> } {
  let heard = () => {};
  const promise = new Promise<void>((resolve) => (heard = resolve));
  const wait = () =>
    Promise.race([
      promise,
      new Promise<void>((_, reject) => setTimeout(() => reject(new Error('no notification arrived')), 10_000)),
    ]);
  return { heard, wait };
}

async function notifyAndHear(pool: SqlPool, notify: () => Promise<void>): Promise<void> {
  const { heard, wait } = hearing();
  const listener = await pool.listen('ledger_test_channel', heard);
  try {
    await notify();
    await wait();
  } finally {
    await listener.close();
  }
  await listener.ended;
}

describe('Database.afterCommit', () => {
  let test: TestDatabase;

  beforeAll(async () => {
    test = await createTestDatabase(4);
    await test.database.sql.query('CREATE TABLE marks (id int PRIMARY KEY)');
  });
  afterAll(async () => {
    await test.drop();
  });

  it('runs once the transaction has committed, once for a callback asked for twice (a joined unit too)', async () => {
    let calls = 0;
    let seenOutside: Promise<{ id: number }[]> | undefined;
    const callback = () => {
      calls++;
      // On another connection: it sees the mark only if the transaction has committed.
      seenOutside = test.database.sql.query<{ id: number }>('SELECT id FROM marks');
    };
    await test.database.transaction('read committed', async () => {
      await test.database.query(INSERT_MARK, { id: 1 });
      test.database.afterCommit(callback);
      await test.database.transaction('read committed', async () => test.database.afterCommit(callback));
      expect(calls).toBe(0);
    });
    expect(calls).toBe(1);
    expect(await seenOutside).toEqual([{ id: 1 }]);
  });

  it('never runs for a transaction that rolls back, and at once outside a transaction', async () => {
    let calls = 0;
    await expect(
      test.database.transaction('read committed', async () => {
        await test.database.query(INSERT_MARK, { id: 2 });
        test.database.afterCommit(() => calls++);
        throw new Error('changed its mind');
      }),
    ).rejects.toThrow('changed its mind');
    expect(calls).toBe(0);
    test.database.afterCommit(() => calls++);
    expect(calls).toBe(1);
  });
});

describe('LISTEN and NOTIFY', () => {
  let test: TestDatabase;

  beforeAll(async () => {
    test = await createTestDatabase(4);
  });
  afterAll(async () => {
    await test.drop();
  });

  it('hears a notification sent by Database.notify on a connection of its own', async () => {
    await notifyAndHear(test.database.sql, () => test.database.notify('ledger_test_channel'));
  });

  it('ends the listener when its connection is lost', async () => {
    // A channel of its own: the backend of another test's listener may linger a moment after it closed.
    const listener = await test.database.listen('ledger_test_lost', () => {});
    const terminated = await test.database.sql.query<{ done: boolean }>(
      `SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity
        WHERE datname = current_database() AND query = 'LISTEN ledger_test_lost'`,
    );
    expect(terminated).toEqual([{ done: true }]);
    await listener.ended;
    await listener.close();
  });

  it('hears one on the embedded database too', async () => {
    const pool = new PgliteSqlPool(await PGlite.create());
    try {
      await notifyAndHear(pool, async () => {
        await pool.query(`SELECT pg_notify('ledger_test_channel', '')`);
      });
    } finally {
      await pool.close();
    }
  });
});
