import { type TestDatabase, createTestDatabase } from '@ledger/db';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { OutboxListener } from './outbox-listener';
import { OUTBOX_CHANNEL } from './outbox-signal';

const LISTENING = `SELECT pid FROM pg_stat_activity
 WHERE datname = current_database() AND query = 'LISTEN ${OUTBOX_CHANNEL}'`;

/** Polls until `condition` holds; a bound on a failure (the test fails), not a timing that is checked. */
async function eventually(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('OutboxListener', () => {
  let test: TestDatabase;

  beforeAll(async () => {
    test = await createTestDatabase(4);
  });
  afterAll(async () => {
    await test.drop();
  });

  it('hears committed events, and again after its connection was lost', async () => {
    const listener = new OutboxListener(test.database);
    let heard = 0;
    listener.start(() => heard++);
    try {
      const listeningPids = async () =>
        (await test.database.sql.query<{ pid: number }>(LISTENING)).map((row) => row.pid);
      await eventually(async () => (await listeningPids()).length === 1, 'it listens');
      await test.database.notify(OUTBOX_CHANNEL);
      await eventually(async () => heard === 1, 'it hears the first notification');

      const [lost] = await listeningPids();
      await test.database.sql.query('SELECT pg_terminate_backend($1)', [lost]);
      await eventually(async () => {
        const pids = await listeningPids();
        return pids.length === 1 && pids[0] !== lost;
      }, 'it listens again on a new connection');
      await test.database.notify(OUTBOX_CHANNEL);
      await eventually(async () => heard === 2, 'it hears the notification after the loss');
    } finally {
      await listener.stop();
    }
    // Its backend leaves a moment after the connection closed.
    await eventually(
      async () => (await test.database.sql.query(LISTENING)).length === 0,
      'stop() closes its connection',
    );
  });
});
