import { sql } from '@ledger/db';

/** A subscription as its owner sees it (never its secrets). */
export interface WebhookRow {
  id: string;
  url: string;
  eventTypes: string[];
  createdAt: Date;
  previousSecretExpiresAt: Date | null;
  /** The circuit breaker: failed attempts in a row, and until when nothing is sent. */
  consecutiveFailures: number;
  parkedUntil: Date | null;
}

/**
 * The current secret becomes the previous one, signing beside the new one until the grace ends. One
 * statement, under the row's lock: Prisma Client cannot set a column from another column's value, and
 * reading the secret first would let two rotations at once lose the secret the first one handed out.
 * The columns are named as Prisma Client names them, so both paths give the same row.
 */
export const ROTATE_SECRET = sql<{ tenantId: string; id: string; secret: string; graceHours: number }, WebhookRow>(`
UPDATE webhook_subscriptions
   SET previous_secret = secret, previous_secret_expires_at = now() + make_interval(hours => :graceHours),
       secret = :secret
 WHERE tenant_id = :tenantId AND id = :id
RETURNING id, url, event_types AS "eventTypes", created_at AS "createdAt",
          previous_secret_expires_at AS "previousSecretExpiresAt", consecutive_failures AS "consecutiveFailures",
          parked_until AS "parkedUntil"`);

/**
 * Serialises the creation of a tenant's subscriptions, so that counting them and adding one under the
 * cap is one step: the count, a fresh statement after this lock, sees every subscription made before.
 */
export const LOCK_TENANT_SUBSCRIPTIONS = sql<{ tenantId: string }>(`
SELECT pg_advisory_xact_lock(hashtextextended(:tenantId::text || ':webhook_subscriptions', 0))`);
