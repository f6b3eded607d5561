export interface WebhookView {
  id: string;
  url: string;
  /** Empty: every event type. */
  events: string[];
  createdAt: string;
  /** Until when the previous secret still signs (after a rotation); null when none does. */
  previousSecretExpiresAt: string | null;
}

export interface WebhookRow {
  id: string;
  url: string;
  event_types: string[];
  created_at: Date;
  previous_secret_expires_at: Date | null;
}

export function webhookView(row: WebhookRow): WebhookView {
  return {
    id: row.id,
    url: row.url,
    events: row.event_types,
    createdAt: row.created_at.toISOString(),
    previousSecretExpiresAt: row.previous_secret_expires_at?.toISOString() ?? null,
  };
}

export type DeliveryStatus = 'pending' | 'delivered' | 'dead';

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

export interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date;
  last_attempt_at: Date | null;
  last_response_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  created_at: Date;
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
