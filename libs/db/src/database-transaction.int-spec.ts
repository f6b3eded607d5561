import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awaitedLater } from './awaited-later';
import { type TestDatabase, createTestDatabase } from './test-database';
import { type NoParams, sql } from './sql-statement';
import { TRANSACTION_ATTEMPTS_MAX } from './transaction-retry';

const READ_COUNTER = sql<NoParams, { value: number }>('SELECT value FROM counters WHERE id = 1');
const SET_COUNTER = sql<{ value: number }>('UPDATE counters SET value = :value WHERE id = 1');

describe('Database.transaction', () => {
  let test: TestDatabase;

  beforeAll(async () => {
    test = await createTestDatabase(12);
    await test.database.sql.query('CREATE TABLE counters (id int PRIMARY KEY, value int NOT NULL)');
    await test.database.sql.query('INSERT INTO counters VALUES (1, 0)');
  });
  afterAll(async () => {
    await test.drop();
  });

  it('re-runs serializable transactions that fail with 40001 until each has committed once', async () => {
    let attempts = 0;
    // Every failed attempt means another of them committed, so n writers need at most n attempts each:
    // with no more writers than the helper's attempts, every one must get through.
    const increments = TRANSACTION_ATTEMPTS_MAX - 1;
    await Promise.all(
      Array.from({ length: increments }, () =>
        test.database.transaction('serializable', async () => {
          attempts++;
          const rows = await test.database.query(READ_COUNTER);
          // Read-then-write under SERIALIZABLE: concurrent runs conflict and must be retried.
          await new Promise((resolve) => setTimeout(resolve, 5));
          await test.database.query(SET_COUNTER, { value: rows[0]!.value + 1 });
        }),
      ),
    );
    const rows = await test.database.sql.query<{ value: number }>('SELECT value FROM counters WHERE id = 1');
    expect(rows[0]!.value).toBe(increments);
    expect(attempts).toBeGreaterThan(increments);
  });

  it('joins an enclosing transaction instead of opening a second one', async () => {
    await expect(
      test.database.transaction('read committed', async () => {
        await test.database.transaction('read committed', () => test.database.query(SET_COUNTER, { value: -1 }));
        throw new Error('roll back both');
      }),
    ).rejects.toThrow('roll back both');
    const rows = await test.database.sql.query<{ value: number }>('SELECT value FROM counters WHERE id = 1');
    expect(rows[0]!.value).not.toBe(-1);
  });

  it(
    'runs a separate transaction beside an enclosing one, ' + 'on its own connection, seeing only committed rows',
    async () => {
      const backend = sql<NoParams, { pid: number; value: number }>(
        'SELECT pg_backend_pid() AS pid, (SELECT value FROM counters WHERE id = 1) AS value',
      );
      await expect(
        test.database.transaction('read committed', async () => {
          await test.database.query(SET_COUNTER, { value: -2 });
          const [separate] = await test.database.separateTransaction('repeatable read', () =>
            test.database.query(backend),
          );
          const [enclosing] = await test.database.query(backend);
          expect(separate!.pid).not.toBe(enclosing!.pid);
          expect(enclosing!.value).toBe(-2);
          expect(separate!.value).not.toBe(-2);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
    },
  );

  it('does not retry errors that are not serialization failures or deadlocks', async () => {
    let attempts = 0;
    await expect(
      test.database.transaction('read committed', async () => {
        attempts++;
        await test.database.query(sql('SELECT 1 / 0'));
      }),
    ).rejects.toMatchObject({ code: '22012' });
    expect(attempts).toBe(1);
  });

  describe('COMMIT sent behind the last statement (commitBehindSent)', () => {
    const counter = async () => (await test.database.query(READ_COUNTER))[0]!.value;

    it("commits what was sent, and the work still gets its statements' answers", async () => {
      const answer = await test.database.transaction('read committed', async () => {
        const written = awaitedLater(test.database.query(SET_COUNTER, { value: 41 }));
        const read = awaitedLater(test.database.query(READ_COUNTER));
        test.database.commitBehindSent();
        await written;
        return (await read)[0]!.value;
      });
      expect(answer).toBe(41);
      expect(await counter()).toBe(41);
    });

    it('rolls everything back when a statement sent before it fails, and reports that statement', async () => {
      await test.database.query(SET_COUNTER, { value: 7 });
      await expect(
        test.database.transaction('read committed', async () => {
          const written = awaitedLater(test.database.query(SET_COUNTER, { value: 8 }));
          const failing = awaitedLater(test.database.query(sql('SELECT 1 / 0')));
          test.database.commitBehindSent();
          await written;
          await failing;
        }),
      ).rejects.toMatchObject({ code: '22012' });
      expect(await counter()).toBe(7);
    });

    it('is refused to a unit of work that joined an enclosing transaction', async () => {
      await test.database.query(SET_COUNTER, { value: 9 });
      await expect(
        test.database.transaction('read committed', async () => {
          await test.database.query(SET_COUNTER, { value: 10 });
          await test.database.transaction('read committed', async () => test.database.commitBehindSent());
        }),
      ).rejects.toThrow('not by one that joined it');
      expect(await counter()).toBe(9);
    });
  });

  it('does not take a COMMIT that PostgreSQL answered with ROLLBACK for a commit', async () => {
    await test.database.query(SET_COUNTER, { value: 3 });
    // The work swallows its failed statement: the transaction is aborted, and its COMMIT is a ROLLBACK.
    await expect(
      test.database.transaction('read committed', async () => {
        await test.database.query(SET_COUNTER, { value: 4 });
        await test.database.query(sql('SELECT 1 / 0')).catch(() => undefined);
        return 'committed?';
      }),
    ).rejects.toThrow('rolled back at COMMIT');
    const rows = await test.database.sql.query<{ value: number }>('SELECT value FROM counters WHERE id = 1');
    expect(rows[0]!.value).toBe(3);
  });
});
