export const EVENT_TYPES = [
  'account.created',
  'transaction.posted',
  'transaction.pending',
  'hold.posted',
  'hold.voided',
  'hold.expired',
  'transaction.reversed',
  'statement.imported',
  'reconciliation.completed',
  'discrepancy.opened',
  'discrepancy.updated',
  'discrepancy.resolved',
  'payment_order.reserved',
  'payment_order.submitting',
  'payment_order.submitted',
  'payment_order.settled',
  'payment_order.returned',
  'payment_order.rejected',
  'payment_order.cancelled',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** What a use case records; id, tenant and time are added by the writer. */
export interface NewEvent {
  type: EventType;
  aggregateType: string;
  aggregateId: string;
  aggregateVersion: bigint;
  data: Record<string, unknown>;
}

/** An event as delivered: the event id is the dedupe key everywhere. */
export interface LedgerEvent {
  id: string;
  type: EventType;
  tenantId: string;
  aggregateId: string;
  aggregateVersion: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

/** An outbox row as the feed and the relay read it. */
export interface OutboxRow {
  id: string;
  type: EventType;
  tenant_id: string;
  aggregate_id: string;
  aggregate_version: bigint;
  occurred_at: Date;
  data: Record<string, unknown>;
  xid: string;
  position: bigint;
}

export function toLedgerEvent(row: OutboxRow): LedgerEvent {
  return {
    id: row.id,
    type: row.type,
    tenantId: row.tenant_id,
    aggregateId: row.aggregate_id,
    aggregateVersion: row.aggregate_version.toString(),
    occurredAt: row.occurred_at.toISOString(),
    data: row.data,
  };
}
