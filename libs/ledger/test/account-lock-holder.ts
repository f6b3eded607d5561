import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '@ledger/db';

/** Whether a session of `database`'s own database waits for an advisory lock (an account's, say). */
async function someoneWaitsForALock(database: Database): Promise<boolean> {
  const rows = await database.sql.query<{ waiting: boolean }>(
    `SELECT count(*) > 0 AS waiting FROM pg_locks
      WHERE locktype = 'advisory' AND NOT granted
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  );
  return rows[0]!.waiting;
}

/**
 * Runs `start` while another transaction holds an account's posting lock (`lockAccount` takes it, in
 * that transaction); once something waits for a lock, runs `meanwhile` in the holding transaction and
 * commits it. Returns what `start` returned. For a posting that reads its accounts before it locks
 * them: `meanwhile` moves the account between the read and the locks. It must name no other account
 * that `start` locks: the two would deadlock, and `start`, run again from the beginning, would read
 * what `meanwhile` did.
 */
export async function whileAccountHeld<T>(
  database: Database,
  work: { lockAccount: () => Promise<unknown>; start: () => Promise<T>; meanwhile: () => Promise<unknown> },
): Promise<T> {
  let heldSignal!: () => void;
  const held = new Promise<void>((resolve) => (heldSignal = resolve));
  let goOn!: () => void;
  const mayGoOn = new Promise<void>((resolve) => (goOn = resolve));
  const holder = database.transaction('read committed', async () => {
    await work.lockAccount();
    heldSignal();
    await mayGoOn;
    await work.meanwhile();
  });
  await held;
  const started = work.start();
  for (let tries = 0; !(await someoneWaitsForALock(database)); tries++) {
    if (tries > 500) throw new Error('nothing waited for the held account');
    await sleep(10);
  }
  goOn();
  await holder;
  return started;
}
