import {
  type DeliverWebhooksUseCase,
  NoEventPublisher,
  type OutboxListener,
  type QueueWebhookDeliveriesUseCase,
  type RelayOutboxUseCase,
} from '@ledger/outbox';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventDeliveryJobs } from './event-delivery-jobs';

/**
 * The jobs with use cases that do no database work, each step counted: the webhook queue plays `queued`
 * and the relay `relayed` (one outcome a step, then nothing). `eventsCommitted` plays a notification
 * from OutboxSignal.
 */
function jobsOf(queued: { claimed: number; deliveries: number }[], relayed: number[] = []) {
  const steps = { relay: 0, queue: 0, delivery: 0 };
  const relay = {
    execute: async () => ({ claimed: relayed[steps.relay++] ?? 0 }),
  } as unknown as RelayOutboxUseCase;
  const webhookQueue = {
    execute: async () => queued[steps.queue++] ?? { claimed: 0, deliveries: 0 },
  } as unknown as QueueWebhookDeliveriesUseCase;
  const webhooks = {
    execute: async () => {
      steps.delivery++;
      return { claimed: 0 };
    },
    whenSlotFrees: () => {},
    drain: async () => {},
  } as unknown as DeliverWebhooksUseCase;
  let eventsCommitted = () => {};
  const listener = {
    start: (onEventsCommitted: () => void) => (eventsCommitted = onEventsCommitted),
    stop: async () => {},
  } as unknown as OutboxListener;
  const jobs = new EventDeliveryJobs(relay, webhookQueue, webhooks, new NoEventPublisher(), listener);
  return { jobs, steps, eventsCommitted: () => eventsCommitted() };
}

/** Lets the loops run what they can without any timer firing (their idle pause is 250 ms). */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('EventDeliveryJobs', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('leases at once the deliveries the webhook queue has just written, without the idle pause', async () => {
    const { jobs, steps } = jobsOf([{ claimed: 2, deliveries: 3 }]);
    jobs.onApplicationBootstrap();
    await settle();
    expect(steps.delivery).toBe(2);
    await jobs.onApplicationShutdown();
  });

  it('leaves webhook delivery in its pause when the queued events matched no subscription', async () => {
    const { jobs, steps } = jobsOf([{ claimed: 2, deliveries: 0 }]);
    jobs.onApplicationBootstrap();
    await settle();
    expect(steps.delivery).toBe(1);
    await vi.advanceTimersByTimeAsync(250);
    expect(steps.delivery).toBe(2);
    await jobs.onApplicationShutdown();
  });

  it('has the webhook queue look again at once when the relay claimed events, and the other way round', async () => {
    const { jobs, steps } = jobsOf([], [3]);
    jobs.onApplicationBootstrap();
    await settle();
    // The relay's claim woke the queue (a second step); the queue found nothing, so the relay stays paused.
    expect(steps).toEqual({ relay: 2, queue: 2, delivery: 1 });
    await jobs.onApplicationShutdown();

    const other = jobsOf([{ claimed: 3, deliveries: 0 }]);
    other.jobs.onApplicationBootstrap();
    await settle();
    expect(other.steps).toEqual({ relay: 2, queue: 2, delivery: 1 });
    await other.jobs.onApplicationShutdown();
  });

  it('looks for events at once when it hears that some were committed', async () => {
    const { jobs, steps, eventsCommitted } = jobsOf([]);
    jobs.onApplicationBootstrap();
    await settle();
    expect(steps).toEqual({ relay: 1, queue: 1, delivery: 1 });
    eventsCommitted();
    await settle();
    expect(steps).toEqual({ relay: 2, queue: 2, delivery: 1 });
    await jobs.onApplicationShutdown();
  });
});
