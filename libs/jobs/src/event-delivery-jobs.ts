import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import {
  DeliverWebhooksUseCase,
  EVENT_PUBLISHER,
  type EventPublisher,
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
 * broker outage backs off the relay alone. Webhook delivery keeps a pool of requests in flight; each
 * step leases for the slots that are free, and each request that ends wakes it, as does a webhook
 * queue step that wrote deliveries. On shutdown each loop finishes the step it is in, the webhook
 * requests in flight end (answered or timed out) and are recorded, then the broker connection closes.
 */
@Injectable()
export class EventDeliveryJobs implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loops: PollingLoop[];

  constructor(
    relay: RelayOutboxUseCase,
    webhookQueue: QueueWebhookDeliveriesUseCase,
    private readonly webhooks: DeliverWebhooksUseCase,
    @Inject(EVENT_PUBLISHER) private readonly publisher: EventPublisher,
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
    // Deliveries just queued (and committed) are due now: lease them at once, not after the idle pause.
    const queue = new PollingLoop({ name: 'webhook-queue', ...options }, async () => {
      const { claimed, deliveries } = await webhookQueue.execute();
      if (deliveries > 0) delivery.wake();
      return claimed;
    });
    this.loops = [
      new PollingLoop(
        { name: `outbox-relay (${publisher.name})`, ...options },
        async () => (await relay.execute()).claimed,
      ),
      queue,
      delivery,
    ];
  }

  onApplicationBootstrap(): void {
    for (const loop of this.loops) loop.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.loops.map((loop) => loop.stop()));
    await this.webhooks.drain();
    await this.publisher.close();
  }
}
