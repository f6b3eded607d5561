import { Injectable } from '@nestjs/common';
import { decodeCursor, encodeCursor } from '@ledger/db';
import { isUuid } from '@ledger/ids';
import { DomainError } from '@ledger/errors';
import { webhookNotFound } from './manage-webhooks.use-cases';
import { WebhookSubscriptionRepository } from './webhook-subscription.repository';
import { WebhookRepository } from './webhook.repository';
import { type DeliveryView, deliveryView } from './webhook.views';
import type { DeliveryStatus } from './webhooks.sql';

export const DELIVERIES_PER_PAGE_MAX = 200;
const CURSOR_PART =
  /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** A subscription's deliveries, newest first; `status=dead` lists its dead letters. */
@Injectable()
export class ListWebhookDeliveriesUseCase {
  constructor(
    private readonly subscriptions: WebhookSubscriptionRepository,
    private readonly webhooks: WebhookRepository,
  ) {}

  async execute(command: {
    tenantId: string;
    webhookId: string;
    status?: DeliveryStatus;
    cursor?: string;
    limit: number;
  }): Promise<{ data: DeliveryView[]; nextCursor: string | null }> {
    if (!isUuid(command.webhookId) || !(await this.subscriptions.get(command.tenantId, command.webhookId)))
      throw webhookNotFound(command.webhookId);
    const limit = Math.min(command.limit, DELIVERIES_PER_PAGE_MAX);
    const before = command.cursor === undefined ? undefined : decodeCursor(command.cursor, CURSOR_PART);
    const rows = await this.webhooks.listDeliveries(
      command.tenantId,
      command.webhookId,
      command.status,
      before && { createdAt: new Date(before[0]!), id: before[1]! },
      limit,
    );
    const last = rows.at(-1);
    return {
      data: rows.map(deliveryView),
      nextCursor: rows.length === limit && last ? encodeCursor([last.created_at.toISOString(), last.id]) : null,
    };
  }
}

/** Manual redelivery (of a dead letter, or a delivered event the receiver lost): queued again now. */
@Injectable()
export class RedeliverWebhookUseCase {
  constructor(private readonly webhooks: WebhookRepository) {}

  async execute(command: { tenantId: string; webhookId: string; deliveryId: string }): Promise<DeliveryView> {
    const ids = [command.webhookId, command.deliveryId];
    const row = ids.every(isUuid)
      ? await this.webhooks.redeliver(command.tenantId, command.webhookId, command.deliveryId)
      : undefined;
    if (!row) throw new DomainError('NOT_FOUND', `no delivery ${command.deliveryId} of webhook ${command.webhookId}`);
    return deliveryView(row);
  }
}
