import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { type LedgerEvent, type OutboxRow, toLedgerEvent } from '../outbox-event';
import type { DeliveryRow, DeliveryStatus, WebhookRow } from './webhook.views';
import {
  CLAIM_UNQUEUED_EVENTS,
  DELETE_DELIVERED_BEFORE,
  ENQUEUE_DELIVERIES,
  MARK_QUEUED,
  DELETE_SUBSCRIPTION,
  DELIVERY_STATISTICS,
  GET_SUBSCRIPTION,
  INSERT_SUBSCRIPTION,
  LIST_DELIVERIES,
  LEASE_DUE,
  LIST_SUBSCRIPTIONS,
  RECORD_DELIVERED,
  RECORD_FAILED,
  REDELIVER,
  ROTATE_SECRET,
} from './webhooks.sql';

export interface DueDelivery {
  tenant_id: string;
  id: string;
  event_id: string;
  body: string;
  attempts: number;
  url: string;
  secret: string;
  previous_secret: string | null;
}

export interface DeliveryFailure {
  responseStatus: number | null;
  error: string;
  retryInMs: number;
  attemptsMax: number;
}

@Injectable()
export class WebhookRepository {
  constructor(private readonly db: Database) {}

  /** Outbox events whose deliveries are not yet queued, oldest first; locked until the caller's transaction ends. */
  async claimUnqueuedEvents(limit: number): Promise<LedgerEvent[]> {
    const rows = await this.db.executor.query<OutboxRow>(CLAIM_UNQUEUED_EVENTS, [limit]);
    return rows.map(toLedgerEvent);
  }

  /** Writes each event's deliveries, one per subscription of its tenant that takes its type, and marks it queued. */
  async queueDeliveries(events: readonly LedgerEvent[]): Promise<void> {
    if (events.length === 0) return;
    const tenantIds = events.map((event) => event.tenantId);
    const ids = events.map((event) => event.id);
    await this.db.executor.query(ENQUEUE_DELIVERIES, [
      tenantIds,
      ids,
      events.map((event) => event.type),
      events.map((event) => JSON.stringify(event)),
    ]);
    await this.db.executor.query(MARK_QUEUED, [tenantIds, ids]);
  }

  async create(
    tenantId: string,
    id: string,
    url: string,
    eventTypes: readonly string[],
    secret: string,
  ): Promise<WebhookRow> {
    const [row] = await this.db.executor.query<WebhookRow>(INSERT_SUBSCRIPTION, [
      tenantId,
      id,
      url,
      eventTypes,
      secret,
    ]);
    return row!;
  }

  list(tenantId: string, afterId: string | undefined, limit: number): Promise<WebhookRow[]> {
    return this.db.executor.query<WebhookRow>(LIST_SUBSCRIPTIONS, [tenantId, afterId ?? null, limit]);
  }

  async get(tenantId: string, id: string): Promise<WebhookRow | undefined> {
    return (await this.db.executor.query<WebhookRow>(GET_SUBSCRIPTION, [tenantId, id]))[0];
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    return (await this.db.executor.query(DELETE_SUBSCRIPTION, [tenantId, id])).length === 1;
  }

  async rotateSecret(
    tenantId: string,
    id: string,
    secret: string,
    graceHours: number,
  ): Promise<WebhookRow | undefined> {
    return (await this.db.executor.query<WebhookRow>(ROTATE_SECRET, [tenantId, id, secret, graceHours]))[0];
  }

  listDeliveries(
    tenantId: string,
    subscriptionId: string,
    status: DeliveryStatus | undefined,
    before: { createdAt: Date; id: string } | undefined,
    limit: number,
  ): Promise<DeliveryRow[]> {
    return this.db.executor.query<DeliveryRow>(LIST_DELIVERIES, [
      tenantId,
      subscriptionId,
      status ?? null,
      before?.createdAt ?? null,
      before?.id ?? null,
      limit,
    ]);
  }

  async redeliver(tenantId: string, subscriptionId: string, deliveryId: string): Promise<DeliveryRow | undefined> {
    return (await this.db.executor.query<DeliveryRow>(REDELIVER, [tenantId, subscriptionId, deliveryId]))[0];
  }

  leaseDue(limit: number, leaseMs: number): Promise<DueDelivery[]> {
    return this.db.executor.query<DueDelivery>(LEASE_DUE, [limit, leaseMs]);
  }

  async recordDelivered(delivery: DueDelivery, responseStatus: number): Promise<void> {
    await this.db.executor.query(RECORD_DELIVERED, [delivery.tenant_id, delivery.id, responseStatus]);
  }

  /** Returns the delivery's status afterwards: still 'pending', or 'dead' after its last attempt. */
  async recordFailed(delivery: DueDelivery, failure: DeliveryFailure): Promise<DeliveryStatus> {
    const [row] = await this.db.executor.query<{ status: DeliveryStatus }>(RECORD_FAILED, [
      delivery.tenant_id,
      delivery.id,
      failure.responseStatus,
      failure.error.slice(0, 500),
      failure.retryInMs,
      failure.attemptsMax,
    ]);
    return row!.status;
  }

  statistics(): Promise<{ status: DeliveryStatus; deliveries: bigint; failed_before: bigint }[]> {
    return this.db.executor.query(DELIVERY_STATISTICS);
  }

  async deleteDeliveredBefore(before: Date, limit: number): Promise<number> {
    return (await this.db.executor.query(DELETE_DELIVERED_BEFORE, [before, limit])).length;
  }
}
