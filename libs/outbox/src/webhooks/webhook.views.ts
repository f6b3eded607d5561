import type { WebhookRow } from './webhook-subscriptions.sql';
import type { DeliveryRow, DeliveryStatus } from './webhooks.sql';

export interface WebhookView {
  id: string;
  url: string;
  /** Empty: every event type. */
  events: string[];
  createdAt: string;
  /** Until when the previous secret still signs (after a rotation); null when none does. */
  previousSecretExpiresAt: string | null;
  /** Failed attempts in a row; a success resets it. */
  consecutiveFailures: number;
  /** While in the future the circuit breaker is open: nothing is sent until then, then one probe. */
  parkedUntil: string | null;
}

export function webhookView(row: WebhookRow): WebhookView {
  return {
    id: row.id,
    url: row.url,
    events: row.eventTypes,
    createdAt: row.createdAt.toISOString(),
    previousSecretExpiresAt: row.previousSecretExpiresAt?.toISOString() ?? null,
    consecutiveFailures: row.consecutiveFailures,
    parkedUntil: row.parkedUntil?.toISOString() ?? null,
  };
}

export interface DeliveryView {
  id: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastResponseStatus: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

export function deliveryView(row: DeliveryRow): DeliveryView {
  return {
    id: row.id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
    lastAttemptAt: row.last_attempt_at?.toISOString() ?? null,
    lastResponseStatus: row.last_response_status,
    lastError: row.last_error,
    deliveredAt: row.delivered_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
  };
}
