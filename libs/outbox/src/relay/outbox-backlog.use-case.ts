import { Injectable } from '@nestjs/common';
import { RelayRepository } from './relay.repository';

export interface OutboxHealth {
  unpublished: string;
  oldestUnpublishedAgeSeconds: number;
  /** Events whose webhook deliveries the worker's webhook queue has not written yet. */
  webhooksUnqueued: string;
  oldestUnqueuedAgeSeconds: number;
  /**
   * 'lagging' when the oldest event waiting for the relay, or for the webhook queue, is older than the
   * threshold: a stuck or absent worker, or (the relay alone) an unreachable broker.
   */
  status: 'ok' | 'lagging';
  /** Which of the two lags. */
  lagging: ('relay' | 'webhookQueue')[];
}

const ageSeconds = (since: Date | undefined, now: Date) =>
  since === undefined ? 0 : Math.max(0, (now.getTime() - since.getTime()) / 1000);

@Injectable()
export class GetOutboxBacklogUseCase {
  constructor(private readonly outbox: RelayRepository) {}

  async execute(command: { lagWarnSeconds: number; now?: Date }): Promise<OutboxHealth> {
    const backlog = await this.outbox.backlog();
    const now = command.now ?? new Date();
    const unpublishedAge = ageSeconds(backlog.oldestUnpublished, now);
    const unqueuedAge = ageSeconds(backlog.oldestUnqueued, now);
    return {
      unpublished: backlog.unpublished.toString(),
      oldestUnpublishedAgeSeconds: Math.round(unpublishedAge),
      webhooksUnqueued: backlog.webhooksUnqueued.toString(),
      oldestUnqueuedAgeSeconds: Math.round(unqueuedAge),
      status: Math.max(unpublishedAge, unqueuedAge) > command.lagWarnSeconds ? 'lagging' : 'ok',
      lagging: [
        ...(unpublishedAge > command.lagWarnSeconds ? ['relay' as const] : []),
        ...(unqueuedAge > command.lagWarnSeconds ? ['webhookQueue' as const] : []),
      ],
    };
  }
}
