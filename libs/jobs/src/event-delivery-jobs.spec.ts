import {
  type DeliverWebhooksUseCase,
  NoEventPublisher,
  type QueueWebhookDeliveriesUseCase,
  type RelayOutboxUseCase,
} from '@ledger/outbox';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventDeliveryJobs } from './event-delivery-jobs';

/**
 * The jobs with use cases that do no database work: the webhook queue plays `queued` (one outcome a
 * step, then nothing), and each step of webhook delivery is counted.
 */
function jobsOf(queued: { claimed: number; deliveries: number }[]) {
  const deliverySteps: number[] = [];
  let queueSteps = 0;
  const relay = { execute: async () => ({ claimed: 0 }) } as unknown as RelayOutboxUseCase;
  const webhookQueue = {
    execute: async () => queued[queueSteps++] ?? { claimed: 0, deliveries: 0 },
  } as unknown as QueueWebhookDeliveriesUseCase;
  const webhooks = {
    execute: async () => {
      deliverySteps.push(deliverySteps.length + 1);
      return { claimed: 0 };
    },
    whenSlotFrees: () => {},
    drain: async () => {},
  } as unknown as DeliverWebhooksUseCase;
  return { jobs: new EventDeliveryJobs(relay, webhookQueue, webhooks, new NoEventPublisher()), deliverySteps };
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
    const { jobs, deliverySteps } = jobsOf([{ claimed: 2, deliveries: 3 }]);
    jobs.onApplicationBootstrap();
    await settle();
    expect(deliverySteps).toEqual([1, 2]);
    await jobs.onApplicationShutdown();
  });

  it('leaves webhook delivery in its pause when the queued events matched no subscription', async () => {
    const { jobs, deliverySteps } = jobsOf([{ claimed: 2, deliveries: 0 }]);
    jobs.onApplicationBootstrap();
    await settle();
    expect(deliverySteps).toEqual([1]);
    await vi.advanceTimersByTimeAsync(250);
    expect(deliverySteps).toEqual([1, 2]);
    await jobs.onApplicationShutdown();
  });
});
