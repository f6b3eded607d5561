import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { PollingLoop } from '@ledger/outbox';
import { AdvancePaymentOrdersUseCase } from '@ledger/payments';

/** How soon a new or due payment order is taken up when the loop was idle. */
const IDLE_DELAY_MS = 250;
const ERROR_DELAY_BASE_MS = 500;
const ERROR_DELAY_CAP_MS = 30_000;

/**
 * The payment orders' saga: a loop that claims due orders (of any tenant) and carries each one step
 * further. On shutdown the pass in progress finishes first (its provider calls end or time out).
 */
@Injectable()
export class PaymentOrderJobs implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loop: PollingLoop;

  constructor(advance: AdvancePaymentOrdersUseCase) {
    this.loop = new PollingLoop(
      {
        name: 'payment-orders',
        idleDelayMs: IDLE_DELAY_MS,
        errorDelayBaseMs: ERROR_DELAY_BASE_MS,
        errorDelayCapMs: ERROR_DELAY_CAP_MS,
      },
      () => advance.execute(),
    );
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }
}
