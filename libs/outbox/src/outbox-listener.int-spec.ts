import { type TestDatabase, createTestDatabase } from '@ledger/db';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { waitUntil } from '../../../test/support/relay-fixtures';
import { OutboxListener } from './outbox-listener';
import { OUTBOX_CHANNEL } from './outbox-signal';

const LISTENING = `SELECT pid FROM pg_stat_activity
 WHERE datname = current_database() AND query = 'LISTEN ${OUTBOX_CHANNEL}'`;
/** A bound on a failure (the test fails), not a timing that is checked. */
const WAIT_MS = 20_000;

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
      await waitUntil(async () => (await listeningPids()).length === 1, WAIT_MS, 'it listens');
      await test.database.notify(OUTBOX_CHANNEL);
      await waitUntil(async () => heard === 1, WAIT_MS, 'it hears the first notification');

      const [lost] = await listeningPids();
      await test.database.sql.query('SELECT pg_terminate_backend($1)', [lost]);
      const listensAgain = async () => {
        const pids = await listeningPids();
        return pids.length === 1 && pids[0] !== lost;
      };
      await waitUntil(listensAgain, WAIT_MS, 'it listens again on a new connection');
      await test.database.notify(OUTBOX_CHANNEL);
      await waitUntil(async () => heard === 2, WAIT_MS, 'it hears the notification after the loss');
    } finally {
      await listener.stop();
    }
    // Its backend leaves a moment after the connection closed.
    const closed = async () => (await test.database.sql.query(LISTENING)).length === 0;
    await waitUntil(closed, WAIT_MS, 'stop() closes its connection');
  });
});
