import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrivateNatsServer, startPrivateNatsServer } from '../support/nats-server';
import { auditBooks, expectBooksWhole } from './support/books-audit';
import { auditEvents, expectEventsDelivered } from './support/event-audit';
import { recordFigures } from './support/fault-report';
import { FAULT_SETTINGS } from './support/fault-settings';
import { setupFaultTenant } from './support/fault-tenant';
import { LedgerStack } from './support/ledger-stack';
import { loadDuringFault } from './support/load-during-fault';
import { type PrivatePostgres, startPrivatePostgres } from '../support/private-postgres';
import { FAULT_SEED, SeededRandom } from './support/seeded-random';

const STREAM = 'FAULTS_POSTGRES';
const OUTAGE_MAX_MS = 2_000;
let postgres: PrivatePostgres;
let nats: PrivateNatsServer;
let stack: LedgerStack;

beforeAll(async () => {
  // A cluster of this test's own: the shared server on :5432 serves every other test.
  postgres = await startPrivatePostgres();
  nats = await startPrivateNatsServer();
  stack = await LedgerStack.create({ adminDatabaseUrl: postgres.adminUrl, natsUrl: nats.url, natsStream: STREAM });
  await stack.startApi();
  await stack.startWorker();
});

afterAll(async () => {
  await stack?.dispose();
  await nats?.dispose();
  await postgres?.dispose();
});

/** Immediate stops (a crash: no checkpoint, crash recovery at start) at seeded-random moments of the load. */
async function restartPostgres(
  random: SeededRandom,
  loadMs: number,
  startedAt: number,
): Promise<{ atMs: number; outageMs: number }[]> {
  const moments = Array.from({ length: FAULT_SETTINGS.postgresRestarts }, () =>
    Math.round(loadMs * (0.1 + 0.7 * random.next())),
  ).sort((a, b) => a - b);
  const done = [];
  for (const atMs of moments) {
    await sleep(Math.max(0, startedAt + atMs - Date.now()));
    const stoppedAt = Date.now();
    await postgres.stop('immediate');
    await sleep(random.between(200, OUTAGE_MAX_MS));
    await postgres.start();
    done.push({ atMs: stoppedAt - startedAt, outageMs: Date.now() - stoppedAt });
  }
  return done;
}

describe('PostgreSQL restarted under load', () => {
  it('answers 503 with Retry-After meanwhile, recovers its pool without a restart, and retries post once', async () => {
    const random = new SeededRandom(FAULT_SEED, 'postgres-restart');
    console.log(`postgres restart: seed ${FAULT_SEED}`);
    const tenant = await setupFaultTenant(stack, 8);
    const apiPid = stack.api!.pid;
    const workerPid = stack.worker!.pid;
    const loadMs = FAULT_SETTINGS.loadSeconds * 1000;
    const {
      load,
      faults: restarts,
      retry,
    } = await loadDuringFault(stack, tenant, 'postgres-restart', loadMs, (startedAt) =>
      restartPostgres(random, loadMs, startedAt),
    );

    const books = await auditBooks(stack, tenant.tenantId, [...load.acknowledged.keys()], tenant.setupTransactionIds);
    const events = await auditEvents(stack, tenant.tenantId, nats.url, STREAM);
    const answers = Object.fromEntries([...load.seen].sort());
    await recordFigures('postgres-restart', {
      headline:
        `acknowledged ${books.acknowledged} / found ${books.found}; ` +
        `events committed ${events.committed} / delivered ${events.deliveredDistinct}; ` +
        `PostgreSQL restarts ${restarts.length}; answers ${JSON.stringify(answers)}`,
      restarts,
      requestsSent: load.sent,
      answers,
      retried: retry.retried,
      books: { ...books, journalVerify: books.journalVerify.exitCode },
      events,
    });

    expect(restarts).toHaveLength(FAULT_SETTINGS.postgresRestarts);
    expect(stack.api!.pid, 'the API was not restarted').toBe(apiPid);
    expect(stack.api!.running, stack.tails()).toBe(true);
    expect(stack.worker!.pid, 'the worker was not restarted').toBe(workerPid);
    expect(stack.worker!.running, stack.tails()).toBe(true);
    expect(load.internalErrors, 'no 500 while the database is away').toEqual([]);
    expect(load.unavailableWithoutRetryAfter, '503 UNAVAILABLE with Retry-After').toEqual([]);
    expect(
      [...load.seen.keys()].filter((label) => label.startsWith('no answer')),
      'the API answered every request',
    ).toEqual([]);
    expect(load.seen.get('503 UNAVAILABLE') ?? 0, 'the outage was seen by clients').toBeGreaterThan(0);
    expect(retry.stillUnacknowledged, 'every request is answered in the end').toEqual([]);
    expect(load.refused, 'no request was refused').toEqual([]);
    expectBooksWhole(books);
    expectEventsDelivered(events);
  });
});
