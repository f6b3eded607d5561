import { Injectable } from '@nestjs/common';
import { WebhookRepository } from './webhook.repository';
import type { DeliveryStatus } from './webhooks.sql';

export interface WebhookStatistics {
  deliveries: Record<DeliveryStatus, number>;
  /** Pending deliveries that failed at least once: an endpoint in trouble. */
  retrying: number;
}

/** Across all tenants, for the metrics endpoint (every process sees the same numbers). */
@Injectable()
export class WebhookStatisticsUseCase {
  constructor(private readonly webhooks: WebhookRepository) {}

  async execute(): Promise<WebhookStatistics> {
    const result: WebhookStatistics = { deliveries: { pending: 0, delivered: 0, dead: 0 }, retrying: 0 };
    for (const row of await this.webhooks.statistics()) {
      result.deliveries[row.status] = Number(row.deliveries);
      if (row.status === 'pending') result.retrying = Number(row.failed_before);
    }
    return result;
  }
}
