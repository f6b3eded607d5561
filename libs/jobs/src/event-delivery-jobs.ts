import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import {
  DeliverWebhooksUseCase,
  EVENT_PUBLISHER,
  type EventPublisher,
  OutboxListener,
  PollingLoop,
  QueueWebhookDeliveriesUseCase,
  RelayOutboxUseCase,
} from '@ledger/outbox';

/** Pause when there was nothing to do, and the backoff range while a step fails (broker or endpoint down). */
const IDLE_DELAY_MS = 250;
const ERROR_DELAY_BASE_MS = 200;
const ERROR_DELAY_CAP_MS = 30_000;

/**
 * The outbox relay, the webhook queue and webhook delivery run continuously (not on a cron tick):
 * each is a loop of bounded batches. The relay and the webhook queue read the outbox apart, so a
 * broker outage backs off the relay alone; both look at once when they hear that events were
 * committed (OutboxListener), else at the end of their idle pause. Webhook delivery keeps a pool of
 * requests in flight; each step leases for the slots that are free, and each request that ends wakes
 * it, as does a webhook queue step that wrote deliveries. On shutdown the listener stops, each loop
 * finishes the step it is in, the webhook requests in flight end (answered or timed out) and are
 * recorded, then the broker connection closes.
 */
@Injectable()
export class EventDeliveryJobs implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loops: PollingLoop[];
  /** Called on each notification that events were committed. */
  private readonly wakeOnEvents: () => void;

  constructor(
    relay: RelayOutboxUseCase,
    webhookQueue: QueueWebhookDeliveriesUseCase,
    private readonly webhooks: DeliverWebhooksUseCase,
    @Inject(EVENT_PUBLISHER) private readonly publisher: EventPublisher,
    private readonly listener: OutboxListener,
  ) {
    const options = {
      idleDelayMs: IDLE_DELAY_MS,
      errorDelayBaseMs: ERROR_DELAY_BASE_MS,
      errorDelayCapMs: ERROR_DELAY_CAP_MS,
    };
    // A delivery that ends frees a slot under its subscription's cap: lease again at once, not after the
    // idle pause. Otherwise one subscription gets at most its cap per pause (2 per 250 ms by default),
    // however fast its endpoint answers.
    const delivery = new PollingLoop(
      { name: 'webhook-delivery', ...options },
      async () => (await webhooks.execute()).claimed,
    );
    webhooks.whenSlotFrees(() => delivery.wake());
    // The relay and the webhook queue lock the events they claim, and each skips those the other holds:
    // when one has claimed some, the other looks again at once. Deliveries just queued (and committed)
    // are due now: they are leased at once, not after the idle pause.
    const relayLoop: PollingLoop = new PollingLoop(
      { name: `outbox-relay (${publisher.name})`, ...options },
      async () => {
        const { claimed } = await relay.execute();
        if (claimed > 0) queue.wake();
        return claimed;
      },
    );
    const queue: PollingLoop = new PollingLoop({ name: 'webhook-queue', ...options }, async () => {
      const { claimed, deliveries } = await webhookQueue.execute();
      if (claimed > 0) relayLoop.wake();
      if (deliveries > 0) delivery.wake();
      return claimed;
    });
    this.loops = [relayLoop, queue, delivery];
    // Events just committed by any process (OutboxSignal): the relay and the webhook queue look at once.
    this.wakeOnEvents = () => {
      relayLoop.wake();
      queue.wake();
    };
  }

  onApplicationBootstrap(): void {
    for (const loop of this.loops) loop.start();
    this.listener.start(this.wakeOnEvents);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.listener.stop();
    await Promise.all(this.loops.map((loop) => loop.stop()));
    await this.webhooks.drain();
    await this.publisher.close();
  }
}
