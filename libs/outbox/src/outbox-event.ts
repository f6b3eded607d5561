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
