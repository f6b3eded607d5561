import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED_ADMIN_DATABASE_URL } from './support/shared-postgres';
import { type PrivateNatsServer, startPrivateNatsServer } from '../support/nats-server';
import { auditBooks, expectBooksWhole } from './support/books-audit';
import { auditEvents, expectEventsDelivered } from './support/event-audit';
import { recordFigures } from './support/fault-report';
import { FAULT_SETTINGS } from './support/fault-settings';
import { setupFaultTenant } from './support/fault-tenant';
import { carryOutKills, planKills } from './support/kill-schedule';
import { LedgerStack } from './support/ledger-stack';
import { loadDuringFault } from './support/load-during-fault';
import { FAULT_SEED, SeededRandom } from './support/seeded-random';

const STREAM = 'FAULTS_KILLS';
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
  await stack.startWorker();
});

afterAll(async () => {
  await stack?.dispose();
  await nats?.dispose();
});

describe('kill -9 of the API and the worker during sustained posting', () => {
  it('loses no acknowledged transaction, writes none twice or by half, and delivers every event', async () => {
    const random = new SeededRandom(FAULT_SEED, 'process-kills');
    console.log(`process kills: seed ${FAULT_SEED}`);
    const tenant = await setupFaultTenant(stack, 8);
    const loadMs = FAULT_SETTINGS.loadSeconds * 1000;
    const plan = planKills(random, FAULT_SETTINGS.kills, loadMs);
    const {
      load,
      faults: kills,
      retry,
    } = await loadDuringFault(stack, tenant, 'process-kills', loadMs, (startedAt) =>
      carryOutKills(stack, plan, startedAt),
    );

    const books = await auditBooks(stack, tenant.tenantId, [...load.acknowledged.keys()], tenant.setupTransactionIds);
    const events = await auditEvents(stack, tenant.tenantId, nats.url, STREAM);
    const answers = Object.fromEntries([...load.seen].sort());
    await recordFigures('process-kills', {
      headline:
        `acknowledged ${books.acknowledged} / found ${books.found}; ` +
        `events committed ${events.committed} / delivered ${events.deliveredDistinct} ` +
        `(redeliveries ${events.redeliveries}); kills api ${stack.kills.api}, worker ${stack.kills.worker}; ` +
        `retried ${retry.retried}`,
      kills,
      requestsSent: load.sent,
      answers,
      retried: retry.retried,
      books: { ...books, journalVerify: books.journalVerify.exitCode },
      events,
    });

    expect(kills.map((kill) => kill.target).sort()).toEqual(plan.map((kill) => kill.target).sort());
    expect(retry.stillUnacknowledged, 'every request is answered in the end').toEqual([]);
    expect(load.refused, 'no request was refused').toEqual([]);
    expect(load.internalErrors, 'no 500 answer').toEqual([]);
    expectBooksWhole(books);
    expectEventsDelivered(events);
    expect(events.wrongMessageIds, 'a redelivery carries its event id as Nats-Msg-Id').toBe(0);
  });
});
