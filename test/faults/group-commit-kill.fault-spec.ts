import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrivateNatsServer, startPrivateNatsServer } from '../support/nats-server';
import { auditBooks, expectBooksWhole } from './support/books-audit';
import { recordFigures } from './support/fault-report';
import { FAULT_SETTINGS } from './support/fault-settings';
import { setupFaultTenant } from './support/fault-tenant';
import { LedgerStack, waitForWritingTransaction } from './support/ledger-stack';
import { PostingLoad } from './support/posting-load';
import { FAULT_SEED, SeededRandom } from './support/seeded-random';
import { SHARED_ADMIN_DATABASE_URL } from './support/shared-postgres';

const STREAM = 'FAULTS_GROUPS';
/** Enough concurrent single postings that they queue behind the group in flight and go as groups. */
const GROUP_CLIENTS = 24;
const DOWNTIME_MAX_MS = 1_000;

// The rows one database transaction wrote share its xmin: how many postings each group wrote.
const GROUP_SIZES = `
SELECT n, count(*)::int AS groups
  FROM (SELECT count(*)::int AS n FROM transactions WHERE tenant_id = $1 AND id = ANY($2::uuid[]) GROUP BY xmin::text) g
 GROUP BY n ORDER BY n`;

let nats: PrivateNatsServer;
let stack: LedgerStack;

beforeAll(async () => {
  nats = await startPrivateNatsServer();
  stack = await LedgerStack.create({
    adminDatabaseUrl: SHARED_ADMIN_DATABASE_URL,
    natsUrl: nats.url,
    natsStream: STREAM,
  });
  await stack.startApi();
});

afterAll(async () => {
  await stack?.dispose();
  await nats?.dispose();
});

/** Each kill at a seeded moment, as soon as a posting transaction is open in the database (a group mid-write). */
async function killDuringGroups(random: SeededRandom, loadMs: number, startedAt: number) {
  const moments = Array.from({ length: FAULT_SETTINGS.kills }, () => Math.round(loadMs * (0.1 + 0.8 * random.next())));
  const done: { atMs: number; pid: number }[] = [];
  for (const moment of moments.sort((a, b) => a - b)) {
    await sleep(Math.max(0, startedAt + moment - Date.now()));
    await waitForWritingTransaction(stack);
    const pid = stack.api?.pid ?? -1;
    await stack.killApi();
    done.push({ atMs: Date.now() - startedAt, pid });
    await sleep(random.between(0, DOWNTIME_MAX_MS));
    await stack.startApi();
  }
  return done;
}

describe('kill -9 of the API while single postings are written in groups', () => {
  it('keeps every acknowledged posting once and no unacknowledged one, half or whole', async () => {
    const random = new SeededRandom(FAULT_SEED, 'group-commit-kill');
    console.log(`group commit kills: seed ${FAULT_SEED}`);
    const tenant = await setupFaultTenant(stack, 16);
    const loadMs = FAULT_SETTINGS.loadSeconds * 1000;
    const load = new PostingLoad(
      tenant.wallets,
      (operation) =>
        stack.request('POST', operation.path, {
          key: tenant.posterKey,
          body: operation.body,
          idempotencyKey: operation.idempotencyKey,
        }),
      'transfers',
    );
    const startedAt = Date.now();
    let killing = true;
    const clients = Array.from({ length: GROUP_CLIENTS }, (_, index) =>
      load.runClient(
        new SeededRandom(FAULT_SEED, `group-commit-kill client ${index}`),
        () => killing || Date.now() - startedAt < loadMs,
      ),
    );
    const kills = await killDuringGroups(random, loadMs, startedAt).finally(() => (killing = false));
    await Promise.all(clients);
    const retry = await load.retryUnacknowledged();

    const acknowledged = [...load.acknowledged.keys()];
    const books = await auditBooks(stack, tenant.tenantId, acknowledged, tenant.setupTransactionIds);
    const groupSizes = await stack.sql<{ n: number; groups: number }>(GROUP_SIZES, [tenant.tenantId, acknowledged]);
    await recordFigures('group-commit-kill', {
      headline:
        `acknowledged ${books.acknowledged} / found ${books.found}; kills ${stack.kills.api}; ` +
        `retried ${retry.retried}; largest group ${groupSizes.at(-1)?.n ?? 0}`,
      kills,
      requestsSent: load.sent,
      answers: Object.fromEntries([...load.seen].sort()),
      retried: retry.retried,
      groupSizes: Object.fromEntries(groupSizes.map((row) => [row.n, row.groups])),
      books: { ...books, journalVerify: books.journalVerify.exitCode },
    });

    expect(kills).toHaveLength(FAULT_SETTINGS.kills);
    expect(retry.stillUnacknowledged, 'every request is answered in the end').toEqual([]);
    expect(load.refused, 'no request was refused').toEqual([]);
    expect(load.internalErrors, 'no 500 answer').toEqual([]);
    // The load is concurrent enough that postings queued behind one another and were written together.
    expect(
      groupSizes.some((row) => row.n > 1),
      'some group wrote several postings',
    ).toBe(true);
    expectBooksWhole(books);
  });
});
