import { randomUUID } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrivateNatsServer, startPrivateNatsServer } from '../support/nats-server';
import { auditBooks, expectBooksWhole } from './support/books-audit';
import { auditEvents, expectEventsDelivered } from './support/event-audit';
import { recordFigures } from './support/fault-report';
import { FAULT_SETTINGS } from './support/fault-settings';
import { type FaultTenant, setupFaultTenant } from './support/fault-tenant';
import { type FleetKind, LedgerFleet } from './support/ledger-fleet';
import { LedgerStack } from './support/ledger-stack';
import { PostingLoad, isRetryable, sendUntilAnswered } from './support/posting-load';
import { SHARED_ADMIN_DATABASE_URL } from './support/shared-postgres';
import { FAULT_SEED, SeededRandom } from './support/seeded-random';
import { waitUntil } from '../support/relay-fixtures';

// Three API processes and two workers on one database, under mixed load (postings of every kind through
// all three APIs, holds that expire, webhooks, reconciliation every few seconds), with kill -9 of some of
// them at seeded-random moments. Afterwards: every acknowledged posting once, every event in JetStream,
// every event delivered to the webhook and never by two workers at once, each expired hold resolved once,
// and no two reconciliation runs of the tenant at the same time.

const STREAM = 'FAULTS_FLEET';
const APIS = 3;
const WORKERS = 2;
/** A webhook answer takes this long, so two deliveries of one event at once would overlap visibly. */
const WEBHOOK_ANSWER_MS = 25;
const SHORT_HOLD_SECONDS = 1;
const SHORT_HOLD_EVERY_MS = 400;
const CATCH_UP_MS = 90_000;

/** Records every webhook request; counts a request for an event that another request is still delivering. */
class OverlapReceiver {
  readonly accepted = new Set<string>();
  readonly inFlight = new Map<string, number>();
  overlaps = 0;
  requests = 0;
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      const eventId = String(request.headers['ledger-event-id'] ?? '');
      this.requests++;
      const running = this.inFlight.get(eventId) ?? 0;
      if (running > 0) this.overlaps++;
      this.inFlight.set(eventId, running + 1);
      request.resume();
      request.on('end', () =>
        setTimeout(() => {
          this.inFlight.set(eventId, (this.inFlight.get(eventId) ?? 1) - 1);
          this.accepted.add(eventId);
          response.writeHead(204).end();
        }, WEBHOOK_ANSWER_MS),
      );
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}/hooks`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve) ?? resolve(undefined));
  }
}

let nats: PrivateNatsServer;
let stack: LedgerStack;
let fleet: LedgerFleet;
const receiver = new OverlapReceiver();

beforeAll(async () => {
  nats = await startPrivateNatsServer();
  stack = await LedgerStack.create({
    adminDatabaseUrl: SHARED_ADMIN_DATABASE_URL,
    natsUrl: nats.url,
    natsStream: STREAM,
  });
  fleet = await LedgerFleet.create(
    stack,
    { apis: APIS, workers: WORKERS },
    {
      RECONCILE_CRON: '*/3 * * * * *',
      RECONCILE_RUN_LEASE_SECONDS: '3',
      LEDGER_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      LEDGER_WEBHOOK_BACKOFF_BASE_MS: '50',
      LEDGER_WEBHOOK_BACKOFF_CAP_MS: '500',
      LEDGER_WEBHOOK_BREAKER_FAILURES: '1000',
      LEDGER_WEBHOOK_SUBSCRIPTION_CONCURRENCY_MAX: '8',
    },
  );
  await fleet.startAll();
}, 120_000);

afterAll(async () => {
  await fleet?.dispose();
  await stack?.dispose();
  await nats?.dispose();
  await receiver.stop();
});

/** Kills at seeded moments, each of a random API or worker, started again after up to a second. */
async function killDuringLoad(random: SeededRandom, loadMs: number, startedAt: number) {
  const moments = Array.from({ length: FAULT_SETTINGS.kills }, () => Math.round(loadMs * (0.1 + 0.8 * random.next())));
  const done: { target: string; atMs: number; pid: number }[] = [];
  for (const atMs of moments.sort((a, b) => a - b)) {
    await sleep(Math.max(0, startedAt + atMs - Date.now()));
    const kind: FleetKind = random.next() < 0.6 ? 'api' : 'worker';
    const index = random.between(0, (kind === 'api' ? APIS : WORKERS) - 1);
    const pid = await fleet.kill(kind, index);
    done.push({ target: `${kind}-${index}`, atMs: Date.now() - startedAt, pid });
    await sleep(random.between(0, 1_000));
    await fleet.start(kind, index);
  }
  return done;
}

/**
 * Holds that expire a second after they are made, one every SHORT_HOLD_EVERY_MS while `going`. A hold
 * without an answer (its API killed after the commit, before the answer) or with a retryable one is sent
 * again afterwards with the same key and body, as a client would: it is then acknowledged by the stored
 * answer, or refused for an expiry now past, with nothing written.
 */
async function expiringHolds(tenant: FaultTenant, going: () => boolean): Promise<string[]> {
  const holds: string[] = [];
  const unanswered: { idempotencyKey: string; body: unknown }[] = [];
  // Whether the hold was answered for good (created or refused), not lost or told to come back.
  const send = async (hold: { idempotencyKey: string; body: unknown }) => {
    const answer = await fleet
      .request('POST', '/v1/transactions', { key: tenant.posterKey, ...hold })
      .catch(() => undefined);
    if (answer?.status === 201) holds.push(answer.body.id);
    return answer !== undefined && !isRetryable(answer.status, answer.body?.error?.code);
  };
  while (going()) {
    const hold = {
      idempotencyKey: randomUUID(),
      body: {
        pending: { expiresAt: new Date(Date.now() + SHORT_HOLD_SECONDS * 1000).toISOString() },
        entries: [
          { account: tenant.wallets[0], direction: 'debit', amount: '1', currency: 'USD' },
          { account: tenant.wallets[1], direction: 'credit', amount: '1', currency: 'USD' },
        ],
      },
    };
    if (!(await send(hold))) unanswered.push(hold);
    await sleep(SHORT_HOLD_EVERY_MS);
  }
  for (const hold of unanswered) await sendUntilAnswered(() => send(hold));
  return holds;
}

/** Waits as the shared `waitUntil` does, every 250 ms; a failure shows the fleet's latest output too. */
function waitFor(
  what: string,
  condition: () => Promise<boolean>,
  diagnose: () => Promise<unknown> = async () => '',
  progress?: () => number,
): Promise<void> {
  return waitUntil(condition, CATCH_UP_MS, what, {
    diagnose: async () => `${JSON.stringify(await diagnose())}\n${fleet.tails()}`,
    progress,
    intervalMs: 250,
  });
}

function phase(startedAt: number, what: string): void {
  console.log(`many processes: ${what} at ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
}

const RESOLUTIONS = `SELECT hold_id::text, count(*)::int AS n, array_agg(id::text) AS ids FROM transactions
  WHERE tenant_id = $1 AND hold_id = ANY($2::uuid[]) GROUP BY hold_id`;
const OVERLAPPING_RUNS = `SELECT count(*)::int AS n FROM reconciliation_runs a JOIN reconciliation_runs b
    ON b.tenant_id = a.tenant_id AND a.id < b.id
 WHERE a.tenant_id = $1 AND a.started_at IS NOT NULL AND b.started_at IS NOT NULL
   AND tstzrange(a.started_at, coalesce(a.finished_at, 'infinity'))
    && tstzrange(b.started_at, coalesce(b.finished_at, 'infinity'))`;
const RUNS = `SELECT status, count(*)::int AS n FROM reconciliation_runs WHERE tenant_id = $1 GROUP BY status`;

describe('three API processes and two workers, some killed with -9, under mixed load', () => {
  it('post once, deliver every event and webhook, expire holds once, run one reconciliation at a time', async () => {
    const random = new SeededRandom(FAULT_SEED, 'many-processes');
    console.log(`many processes: seed ${FAULT_SEED}`);
    const tenant = await setupFaultTenant(stack, 8);
    const hook = await stack.request('POST', '/v1/webhooks', {
      key: tenant.adminKey,
      idempotencyKey: randomUUID(),
      body: { url: await receiver.start(), events: [] },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    // A webhook gets the events after its creation: the setup's are before it.
    const [{ position: before }] = (await stack.sql<{ position: string }>(
      'SELECT coalesce(max(position), 0)::text AS position FROM outbox_events WHERE tenant_id = $1',
      [tenant.tenantId],
    )) as [{ position: string }];

    const load = new PostingLoad(tenant.wallets, (operation) =>
      fleet.request('POST', operation.path, {
        key: tenant.posterKey,
        body: operation.body,
        idempotencyKey: operation.idempotencyKey,
      }),
    );
    const loadMs = FAULT_SETTINGS.loadSeconds * 1000;
    const startedAt = Date.now();
    let killing = true;
    const going = () => killing || Date.now() - startedAt < loadMs;
    const clients = Array.from({ length: FAULT_SETTINGS.clients }, (_, index) =>
      load.runClient(new SeededRandom(FAULT_SEED, `many-processes client ${index}`), going),
    );
    const holdsMade = expiringHolds(tenant, going);
    const kills = await killDuringLoad(random, loadMs, startedAt).finally(() => (killing = false));
    await Promise.all(clients);
    const shortHolds = await holdsMade;
    phase(startedAt, `load and ${kills.length} kills done`);
    const retry = await load.retryUnacknowledged();

    // Every short hold expires once (the expiry job runs every 10 s in each worker).
    await waitFor('every short hold expired', async () => {
      const resolved = await stack.sql<{ n: number }>(RESOLUTIONS, [tenant.tenantId, shortHolds]);
      return resolved.length === shortHolds.length;
    });
    const resolutions = await stack.sql<{ hold_id: string; n: number; ids: string[] }>(RESOLUTIONS, [
      tenant.tenantId,
      shortHolds,
    ]);
    const expiryIds = resolutions.flatMap((row) => row.ids);
    phase(startedAt, 'short holds expired');
    // The audit compares the committed events with the stream: the workers are started again without the
    // reconciliation schedule, whose runs would otherwise commit events between the two reads.
    for (let index = 0; index < WORKERS; index++) {
      await fleet.stop('worker', index);
      await fleet.start('worker', index, { RECONCILE_CRON: '0 0 1 1 *' });
    }

    const books = await auditBooks(
      stack,
      tenant.tenantId,
      [...load.acknowledged.keys(), ...shortHolds],
      [...tenant.setupTransactionIds, ...expiryIds],
    );
    const events = await auditEvents(stack, tenant.tenantId, nats.url, STREAM);
    const committed = (
      await stack.sql<{ id: string }>(
        'SELECT id::text FROM outbox_events WHERE tenant_id = $1 AND position > $2::int8',
        [tenant.tenantId, before],
      )
    ).map((row) => row.id);
    phase(startedAt, 'books and events audited');
    await waitFor(
      'every event delivered to the webhook',
      async () => committed.every((id) => receiver.accepted.has(id)),
      async () => ({
        missing: committed.filter((id) => !receiver.accepted.has(id)).length,
        deliveries: await stack.sql(
          'SELECT status, count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = $1 GROUP BY status',
          [tenant.tenantId],
        ),
      }),
      // Deliveries go on at their own pace: a longer load makes more of them, which is not a stall.
      () => receiver.accepted.size,
    );
    phase(startedAt, 'webhooks delivered');
    const [{ n: overlappingRuns }] = (await stack.sql<{ n: number }>(OVERLAPPING_RUNS, [tenant.tenantId])) as [
      { n: number },
    ];
    const runs = Object.fromEntries(
      (await stack.sql<{ status: string; n: number }>(RUNS, [tenant.tenantId])).map((row) => [row.status, row.n]),
    );
    await recordFigures('many-processes', {
      headline:
        `${APIS} APIs, ${WORKERS} workers; kills api ${fleet.kills.api}, worker ${fleet.kills.worker}; ` +
        `acknowledged ${books.acknowledged} / found ${books.found}; events ${events.committed} / in stream ` +
        `${events.deliveredDistinct}; webhook requests ${receiver.requests} for the ${committed.length} events ` +
        `after its creation, ` +
        `overlapping ${receiver.overlaps}; short holds ${shortHolds.length}, each resolved once; runs ` +
        `${JSON.stringify(runs)}, overlapping ${overlappingRuns}`,
      kills,
      answers: Object.fromEntries([...load.seen].sort()),
      retried: retry.retried,
    });

    expect(fleet.kills.api + fleet.kills.worker).toBe(kills.length);
    expect(retry.stillUnacknowledged, 'every request is answered in the end').toEqual([]);
    expect(load.refused, 'no request was refused').toEqual([]);
    expect(load.internalErrors, 'no 500 answer').toEqual([]);
    expectBooksWhole(books);
    expectEventsDelivered(events);
    expect(receiver.overlaps, 'no event delivered by two workers at the same time').toBe(0);
    expect(shortHolds.length).toBeGreaterThan(5);
    expect(resolutions.filter((row) => row.n !== 1)).toEqual([]);
    expect(overlappingRuns, 'one reconciliation run of the tenant at a time').toBe(0);
    expect(runs.completed ?? 0, JSON.stringify(runs)).toBeGreaterThan(0);
  }, 420_000);
});
