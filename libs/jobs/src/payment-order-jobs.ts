import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { PollingLoop } from '@ledger/outbox';
import { AdvancePaymentOrdersUseCase } from '@ledger/payments';

/** How soon a new or due payment order is taken up when the loop was idle. */
const IDLE_DELAY_MS = 250;
const ERROR_DELAY_BASE_MS = 500;
const ERROR_DELAY_CAP_MS = 30_000;

/**
 * The payment orders' saga: a loop that claims due orders (of any tenant) for its free slots and carries
 * each one step further; an order that ends its step frees its slot and wakes the loop. On shutdown the
 * orders in flight finish their step first (their provider calls end or time out).
 */
@Injectable()
export class PaymentOrderJobs implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loop: PollingLoop;

  constructor(private readonly advance: AdvancePaymentOrdersUseCase) {
    this.loop = new PollingLoop(
      {
        name: 'payment-orders',
        idleDelayMs: IDLE_DELAY_MS,
        errorDelayBaseMs: ERROR_DELAY_BASE_MS,
        errorDelayCapMs: ERROR_DELAY_CAP_MS,
      },
      () => advance.startDue(),
    );
    advance.whenSlotFrees(() => this.loop.wake());
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
    await this.advance.drain();
  }
}
