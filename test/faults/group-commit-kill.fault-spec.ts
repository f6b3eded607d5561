import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrivateNatsServer, startPrivateNatsServer } from '../support/nats-server';
import { auditBooks, expectBooksWhole } from './support/books-audit';
import { recordFigures } from './support/fault-report';
import { FAULT_SETTINGS } from './support/fault-settings';
import { setupFaultTenant } from './support/fault-tenant';
import { LedgerStack, waitForWritingTransaction } from './support/ledger-stack';
import { LOAD_BATCH_ITEMS_MAX, type LoadMix, PostingLoad } from './support/posting-load';
import { FAULT_SEED, SeededRandom } from './support/seeded-random';
import { SHARED_ADMIN_DATABASE_URL } from './support/shared-postgres';

const STREAM = 'FAULTS_GROUPS';
/** Enough concurrent requests that they queue behind the groups in flight and go as groups. */
const GROUP_CLIENTS = 24;
const DOWNTIME_MAX_MS = 1_000;

// The rows one database transaction wrote share its xmin: how many postings each group wrote.
const GROUP_SIZES = `
SELECT n, count(*)::int AS groups
  FROM (SELECT count(*)::int AS n FROM transactions WHERE tenant_id = $1 AND id = ANY($2::uuid[]) GROUP BY xmin::text) g
 GROUP BY n ORDER BY n`;

/** The most transactions one database transaction wrote beside a capture, void or reversal of the load. */
const LARGEST_GROUP_WITH_NAMED = `
SELECT coalesce(max(n), 0)::int AS n
  FROM (SELECT count(*)::int AS n, bool_or(hold_id IS NOT NULL OR reverses_id IS NOT NULL) AS named
          FROM transactions WHERE tenant_id = $1 AND id = ANY($2::uuid[]) GROUP BY xmin::text) g
 WHERE named`;

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

/**
 * Clients posting one kind of request (single transfers, batches, or holds with their resolutions and
 * reversals) while the API is killed in the middle of groups; then every unacknowledged request is sent
 * again with its key.
 */
async function postThroughKills(mix: Exclude<LoadMix, 'mixed'>) {
  const random = new SeededRandom(FAULT_SEED, `group-commit-kill ${mix}`);
  console.log(`group commit kills (${mix}): seed ${FAULT_SEED}`);
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
    mix,
  );
  const startedAt = Date.now();
  let killing = true;
  const clients = Array.from({ length: GROUP_CLIENTS }, (_, index) =>
    load.runClient(
      new SeededRandom(FAULT_SEED, `group-commit-kill ${mix} client ${index}`),
      () => killing || Date.now() - startedAt < loadMs,
    ),
  );
  const kills = await killDuringGroups(random, loadMs, startedAt).finally(() => (killing = false));
  await Promise.all(clients);
  const retry = await load.retryUnacknowledged();

  const acknowledged = [...load.acknowledged.keys()];
  const books = await auditBooks(stack, tenant.tenantId, acknowledged, tenant.setupTransactionIds);
  const groupSizes = await stack.sql<{ n: number; groups: number }>(GROUP_SIZES, [tenant.tenantId, acknowledged]);
  const [withNamed] = await stack.sql<{ n: number }>(LARGEST_GROUP_WITH_NAMED, [tenant.tenantId, acknowledged]);
  await recordFigures(`group-commit-kill-${mix}`, {
    headline:
      `acknowledged ${books.acknowledged} / found ${books.found}; kills ${kills.length}; ` +
      `retried ${retry.retried}; largest group ${groupSizes.at(-1)?.n ?? 0}` +
      (mix === 'holds' ? `, with a capture, void or reversal ${withNamed!.n}` : ''),
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
  expectBooksWhole(books);
  return { largestGroup: groupSizes.at(-1)?.n ?? 0, largestWithNamed: withNamed!.n };
}

describe('kill -9 of the API while postings are written in groups', () => {
  it('keeps every acknowledged single posting once and no unacknowledged one, half or whole', async () => {
    const { largestGroup } = await postThroughKills('transfers');
    // The load is concurrent enough that postings queued behind one another and were written together.
    expect(largestGroup, 'some group wrote several postings').toBeGreaterThan(1);
  });

  it('keeps every acknowledged batch item once and no unacknowledged one, half or whole', async () => {
    const { largestGroup } = await postThroughKills('batches');
    // More items in one transaction than one batch of this load holds: batches were written together.
    expect(largestGroup, 'some group wrote several batches').toBeGreaterThan(LOAD_BATCH_ITEMS_MAX);
  });

  it('keeps every acknowledged capture, void and reversal once, each hold resolved once at most', async () => {
    const { largestWithNamed } = await postThroughKills('holds');
    // Above: each found once, and no request refused (a capture sent again after a kill replays its
    // answer, never 409 HOLD_ALREADY_RESOLVED); a second resolution of a hold cannot be written at all.
    expect(largestWithNamed, 'captures, voids or reversals were written beside other requests').toBeGreaterThan(1);
  });
});
