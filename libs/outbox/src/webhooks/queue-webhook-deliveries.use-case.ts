import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { WebhookRepository } from './webhook.repository';

export const WEBHOOK_QUEUE_BATCH_SIZE_MAX = 200;

/**
 * One batch of the webhook queue, in one transaction: claim outbox events whose deliveries are not yet
 * written (row locks, SKIP LOCKED, so several workers share the work), write one delivery per matching
 * subscription, mark the events queued, commit. It runs apart from the broker relay: with the broker
 * down, webhooks still go out. A crash before the commit leaves the events unqueued, and the next batch
 * writes their deliveries then (never twice: one per subscription and event).
 */
@Injectable()
export class QueueWebhookDeliveriesUseCase {
  constructor(
    private readonly db: Database,
    private readonly webhooks: WebhookRepository,
  ) {}

  /** How many events it queued, and how many deliveries it wrote for them (committed when it returns). */
  async execute(batchSizeMax: number = WEBHOOK_QUEUE_BATCH_SIZE_MAX): Promise<{ claimed: number; deliveries: number }> {
    return this.db.transaction('read committed', async () => {
      const events = await this.webhooks.claimUnqueuedEvents(batchSizeMax);
      const deliveries = await this.webhooks.queueDeliveries(events);
      return { claimed: events.length, deliveries };
    });
  }
}
