import { setTimeout as sleep } from 'node:timers/promises';
import { type TestDatabase, createTestDatabase } from '@ledger/db';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, startApi } from './support/api-harness';
import {
  type TestTenant,
  mustPost,
  readEventFeed,
  seededTenant,
  transfer,
  walletAndShop,
} from './support/ledger-fixtures';

let api: ApiHarness;
let neighbour: TestDatabase;
let tenant: TestTenant;

beforeAll(async () => {
  api = await startApi();
  neighbour = await createTestDatabase(2);
  tenant = await seededTenant(api, 'feed fence');
});

afterAll(async () => {
  await neighbour.drop();
  await api.close();
});

/** A transaction that has written (so it has an xid) and stays open until `release()`. */
async function openWritingTransaction(url: string): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN');
  await client.query('SELECT pg_current_xact_id()');
  return {
    async release() {
      await client.query('COMMIT');
      await client.end();
    },
  };
}

describe('the event feed fence', () => {
  it('is not held back by a long transaction in another database on the same server', async () => {
    const { wallet } = await walletAndShop(api, tenant);
    const held = await openWritingTransaction(neighbour.url);
    try {
      const posted = await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, '5'));
      const { events } = await readEventFeed(api, tenant.posterKey, {
        ready: (all) => all.some((event) => event.aggregateId === posted.id),
        timeoutMs: 3_000,
      });
      expect(events.map((event) => event.aggregateId)).toContain(posted.id);
    } finally {
      await held.release();
    }
  });

  it('still waits for a running transaction of its own database', async () => {
    const { wallet } = await walletAndShop(api, tenant);
    const held = await openWritingTransaction(api.db.url);
    let posted: { id: string };
    try {
      posted = await mustPost(api, tenant.posterKey, transfer('equity:seed', wallet, '5'));
      await sleep(200);
      const { events } = await readEventFeed(api, tenant.posterKey);
      expect(events.map((event) => event.aggregateId)).not.toContain(posted.id);
    } finally {
      await held.release();
    }
    const { events } = await readEventFeed(api, tenant.posterKey, {
      ready: (all) => all.some((event) => event.aggregateId === posted.id),
    });
    expect(events.map((event) => event.aggregateId)).toContain(posted.id);
  });
});
