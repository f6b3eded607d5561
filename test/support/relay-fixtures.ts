import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type EventPublisher,
  type LedgerEvent,
  NatsEventPublisher,
  PollingLoop,
  QueueWebhookDeliveriesUseCase,
  type RelayFaults,
  RelayOutboxUseCase,
  RelayRepository,
  WebhookRepository,
} from '@ledger/outbox';
import type { ApiHarness } from './api-harness';

/** A stream and subject prefix of this test's own, so tests sharing one NATS server never meet. */
export function testStream(): { stream: string; subjectPrefix: string } {
  const suffix = randomBytes(4).toString('hex');
  return { stream: `LEDGER_TEST_${suffix}`, subjectPrefix: `ledger_test_${suffix}` };
}

export function natsPublisher(url: string, names: { stream: string; subjectPrefix: string }): NatsEventPublisher {
  return new NatsEventPublisher({ url, ...names, duplicateWindowMs: 10 * 60_000, publishTimeoutMs: 1_000 });
}

/** Passes every publish through and remembers, in order, the events the broker acknowledged. */
export class RecordingPublisher implements EventPublisher {
  readonly name = 'recording';
  readonly published: LedgerEvent[] = [];

  constructor(private readonly inner: EventPublisher) {}

  async publish(event: LedgerEvent): Promise<void> {
    await this.inner.publish(event);
    this.published.push(event);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** A relay as the worker builds one (what a separate relay process would run), on the test's database. */
export function relayOf(
  api: ApiHarness,
  publisher: EventPublisher,
  options: { batchSizeMax?: number; faults?: RelayFaults } = {},
): RelayOutboxUseCase {
  return new RelayOutboxUseCase(
    api.db.database,
    new RelayRepository(api.db.database),
    publisher,
    options.batchSizeMax,
    options.faults,
  );
}

const TEST_LOOP_DELAYS = { idleDelayMs: 20, errorDelayBaseMs: 50, errorDelayCapMs: 500 };

export function relayLoop(relay: RelayOutboxUseCase): PollingLoop {
  return new PollingLoop({ name: 'test-relay', ...TEST_LOOP_DELAYS }, async () => (await relay.execute()).claimed);
}

/** The webhook queue as the worker builds it, on the test's database. */
export function webhookQueueOf(api: ApiHarness): QueueWebhookDeliveriesUseCase {
  return new QueueWebhookDeliveriesUseCase(api.db.database, new WebhookRepository(api.db.database));
}

export function webhookQueueLoop(api: ApiHarness): PollingLoop {
  const queue = webhookQueueOf(api);
  return new PollingLoop(
    { name: 'test-webhook-queue', ...TEST_LOOP_DELAYS },
    async () => (await queue.execute()).claimed,
  );
}

export async function outboxIds(api: ApiHarness, tenantId: string): Promise<{ id: string; published: boolean }[]> {
  return api.db.database.sql.query(
    `SELECT id, published_at IS NOT NULL AS published FROM outbox_events WHERE tenant_id = $1 ORDER BY xid, position`,
    [tenantId],
  );
}

export interface WaitOptions {
  /** What the failure says besides its name: the state that was waited on (text as it is, else JSON). */
  diagnose?: () => Promise<unknown>;
  /**
   * How much is done so far: while it grows the work is going on, however long a load made it, and the
   * bound starts again (so the wait fails on a stall, not on a long load).
   */
  progress?: () => number;
  intervalMs?: number;
}

/** Waits until `condition` holds; fails after `timeoutMs` (without progress, when `progress` is given). */
export async function waitUntil(
  condition: () => Promise<boolean>,
  timeoutMs: number,
  what: string,
  options: WaitOptions = {},
): Promise<void> {
  const { diagnose, progress = () => 0, intervalMs = 50 } = options;
  let deadline = Date.now() + timeoutMs;
  let done = progress();
  while (!(await condition())) {
    if (progress() > done) {
      done = progress();
      deadline = Date.now() + timeoutMs;
    }
    if (Date.now() > deadline) {
      const state = diagnose === undefined ? undefined : await diagnose();
      const shown = state === undefined ? '' : `: ${typeof state === 'string' ? state : JSON.stringify(state)}`;
      throw new Error(`timed out waiting until ${what}${shown}`);
    }
    await sleep(intervalMs);
  }
}
