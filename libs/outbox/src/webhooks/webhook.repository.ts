import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import { type LedgerEvent, toLedgerEvent } from '../outbox-event';
import type { DeliveryStatus } from './webhooks.sql';
import {
  CLAIM_UNQUEUED_EVENTS,
  DELETE_DELIVERED_BEFORE,
  DELIVERY_STATISTICS,
  type DeliveryRow,
  type DueDelivery,
  ENQUEUE_DELIVERIES,
  LEASE_DUE,
  LIST_DELIVERIES,
  LOCK_LEASING,
  type LeaseParams,
  MARK_QUEUED,
  RECORD_DELIVERED,
  RECORD_FAILED,
  REDELIVER,
} from './webhooks.sql';

export interface DeliveryFailure {
  responseStatus: number | null;
  error: string;
  retryInMs: number;
  attemptsMax: number;
}

/** When a subscription's breaker opens and for how long it parks it (see RECORD_FAILED). */
export interface BreakerPolicy {
  breakerFailures: number;
  breakerParkBaseMs: number;
  breakerParkCapMs: number;
}

/** Characters of an endpoint's error kept in the delivery log. */
const DELIVERY_ERROR_CHARS_MAX = 500;

/** The webhook delivery queue (hand-written SQL: leases, SKIP LOCKED claims, set-based writes) and its log. */
@Injectable()
export class WebhookRepository {
  constructor(private readonly db: Database) {}

  /** Outbox events whose deliveries are not queued yet, oldest first; locked until the current transaction ends. */
  async claimUnqueuedEvents(limit: number): Promise<LedgerEvent[]> {
    return (await this.db.query(CLAIM_UNQUEUED_EVENTS, { limit })).map(toLedgerEvent);
  }

  /**
   * Writes each event's deliveries, one per subscription of its tenant that takes its type, and marks it
   * queued; how many deliveries it wrote.
   */
  async queueDeliveries(events: readonly LedgerEvent[]): Promise<number> {
    if (events.length === 0) return 0;
    const tenantIds = events.map((event) => event.tenantId);
    const ids = events.map((event) => event.id);
    const [counted] = await this.db.query(ENQUEUE_DELIVERIES, {
      tenantIds,
      ids,
      types: events.map((event) => event.type),
      bodies: events.map((event) => JSON.stringify(event)),
    });
    await this.db.query(MARK_QUEUED, { tenantIds, ids });
    return counted!.written;
  }

  listDeliveries(
    tenantId: string,
    subscriptionId: string,
    status: DeliveryStatus | undefined,
    before: { createdAt: Date; id: string } | undefined,
    limit: number,
  ): Promise<DeliveryRow[]> {
    return this.db.query(LIST_DELIVERIES, {
      tenantId,
      subscriptionId,
      status: status ?? null,
      beforeCreatedAt: before?.createdAt ?? null,
      beforeId: before?.id ?? null,
      limit,
    });
  }

  async redeliver(tenantId: string, subscriptionId: string, deliveryId: string): Promise<DeliveryRow | undefined> {
    const [row] = await this.db.query(REDELIVER, { tenantId, subscriptionId, id: deliveryId });
    return row;
  }

  /** One short transaction: the leasing lock, then the lease, which sees every lease taken before it. */
  leaseDue(lease: LeaseParams): Promise<DueDelivery[]> {
    return this.db.transaction('read committed', async () => {
      await this.db.query(LOCK_LEASING);
      return this.db.query(LEASE_DUE, lease);
    });
  }

  async recordDelivered(delivery: DueDelivery, responseStatus: number): Promise<void> {
    await this.db.query(RECORD_DELIVERED, { tenantId: delivery.tenant_id, id: delivery.id, responseStatus });
  }

  /** Returns the delivery's status afterwards: still 'pending', or 'dead' after its last attempt. */
  async recordFailed(delivery: DueDelivery, failure: DeliveryFailure, breaker: BreakerPolicy): Promise<DeliveryStatus> {
    const [row] = await this.db.query(RECORD_FAILED, {
      tenantId: delivery.tenant_id,
      id: delivery.id,
      responseStatus: failure.responseStatus,
      error: failure.error.slice(0, DELIVERY_ERROR_CHARS_MAX),
      retryInMs: failure.retryInMs,
      attemptsMax: failure.attemptsMax,
      breakerFailures: breaker.breakerFailures,
      breakerParkBaseMs: breaker.breakerParkBaseMs,
      breakerParkCapMs: breaker.breakerParkCapMs,
    });
    return row!.status;
  }

  statistics(): Promise<{ status: DeliveryStatus; deliveries: bigint; failed_before: bigint }[]> {
    return this.db.query(DELIVERY_STATISTICS);
  }

  async deleteDeliveredBefore(before: Date, limit: number): Promise<number> {
    return (await this.db.query(DELETE_DELIVERED_BEFORE, { before, limit })).length;
  }
}
