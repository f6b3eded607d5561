import { sql } from '@ledger/db';
import type { PaymentOrderStatus } from '../domain/payment-order';

// Payment orders and their steps. Hand-written: every transition is a conditional update under the
// order's row lock, and the worker claims due orders with FOR UPDATE SKIP LOCKED.

export interface OrderRow {
  tenant_id: string;
  id: string;
  connector_id: string;
  connector_name: string;
  clearing_account_id: string;
  settle_deadline_seconds: number;
  direction: 'payout' | 'refund';
  source_account_id: string;
  source_account_code: string;
  amount_minor: bigint;
  currency: string;
  counterparty: Record<string, unknown>;
  external_ref: string | null;
  description: string | null;
  metadata: Record<string, unknown>;
  status: PaymentOrderStatus;
  version: number;
  hold_id: string;
  settle_transaction_id: string | null;
  return_transaction_id: string | null;
  provider_payment_id: string | null;
  provider_status: string | null;
  attempts: number;
  next_attempt_at: Date | null;
  deadline_at: Date | null;
  last_error: string | null;
  actor: string;
  created_at: Date;
  updated_at: Date;
}

const ORDER_COLUMNS = `o.tenant_id, o.id, o.connector_id, c.name AS connector_name, c.clearing_account_id,
       c.settle_deadline_seconds, o.direction, o.source_account_id, a.code AS source_account_code, o.amount_minor,
       o.currency::text AS currency, o.counterparty, o.external_ref, o.description, o.metadata, o.status, o.version,
       o.hold_id, o.settle_transaction_id, o.return_transaction_id,
       o.provider_payment_id, o.provider_status, o.attempts, o.next_attempt_at, o.deadline_at, o.last_error, o.actor,
       o.created_at, o.updated_at`;
const ORDER_JOINS = `
  JOIN payment_connectors c ON c.tenant_id = o.tenant_id AND c.id = o.connector_id
  JOIN accounts a ON a.tenant_id = o.tenant_id AND a.id = o.source_account_id`;

export interface NewOrderParams {
  tenantId: string;
  id: string;
  connectorId: string;
  direction: 'payout' | 'refund';
  sourceAccountId: string;
  amountMinor: bigint;
  currency: string;
  counterparty: string;
  externalRef: string | null;
  description: string | null;
  metadata: string;
  holdId: string;
  deadlineAt: Date;
  actor: string;
  createdAt: Date;
}

export const INSERT_ORDER = sql<NewOrderParams, { id: string }>(`
INSERT INTO payment_orders (tenant_id, id, connector_id, direction, source_account_id, amount_minor, currency,
                            counterparty, external_ref, description, metadata, status, hold_id, next_attempt_at,
                            deadline_at, actor, created_at, updated_at)
VALUES (:tenantId, :id, :connectorId, :direction, :sourceAccountId, :amountMinor, :currency, :counterparty::jsonb,
        :externalRef, :description, :metadata::jsonb, 'reserved', :holdId, :createdAt, :deadlineAt, :actor,
        :createdAt, :createdAt)
ON CONFLICT (tenant_id, external_ref) DO NOTHING
RETURNING id`);

type OrderKey = { tenantId: string; id: string };

export const GET_ORDER = sql<OrderKey, OrderRow>(`
SELECT ${ORDER_COLUMNS} FROM payment_orders o ${ORDER_JOINS} WHERE o.tenant_id = :tenantId AND o.id = :id`);

export const GET_ORDER_BY_REF = sql<{ tenantId: string; externalRef: string }, OrderRow>(`
SELECT ${ORDER_COLUMNS} FROM payment_orders o ${ORDER_JOINS}
 WHERE o.tenant_id = :tenantId AND o.external_ref = :externalRef`);

/** Held until the transition's transaction ends: the worker, a webhook and a cancel take turns. */
export const LOCK_ORDER = sql<OrderKey, OrderRow>(`
SELECT ${ORDER_COLUMNS} FROM payment_orders o ${ORDER_JOINS} WHERE o.tenant_id = :tenantId AND o.id = :id
   FOR UPDATE OF o`);

export interface ListOrdersParams {
  tenantId: string;
  status: PaymentOrderStatus | null;
  connector: string | null;
  stuck: boolean;
  afterId: string | null;
  limit: number;
}

/** Newest first (ids are UUIDv7), a keyset page; stuck ones are those past their step's deadline. */
export const LIST_ORDERS = sql<ListOrdersParams, OrderRow>(`
SELECT ${ORDER_COLUMNS} FROM payment_orders o ${ORDER_JOINS}
 WHERE o.tenant_id = :tenantId
   AND (:status::text IS NULL OR o.status = :status::text)
   AND (:connector::text IS NULL OR c.name = :connector::text OR c.id::text = lower(:connector::text))
   AND (NOT :stuck::boolean OR o.deadline_at < now())
   AND (:afterId::uuid IS NULL OR o.id < :afterId::uuid)
 ORDER BY o.id DESC
 LIMIT :limit`);

export interface OrderChange {
  tenantId: string;
  id: string;
  status: PaymentOrderStatus;
  settleTransactionId: string | null;
  returnTransactionId: string | null;
  providerPaymentId: string | null;
  providerStatus: string | null;
  attempts: number;
  nextAttemptAt: Date | null;
  deadlineAt: Date | null;
  lastError: string | null;
}

/** Run under LOCK_ORDER: the caller decided the change on the row it holds. */
export const UPDATE_ORDER = sql<OrderChange, { version: number }>(`
UPDATE payment_orders
   SET status = :status, settle_transaction_id = :settleTransactionId::uuid,
       return_transaction_id = :returnTransactionId::uuid, provider_payment_id = :providerPaymentId,
       provider_status = :providerStatus, attempts = :attempts, next_attempt_at = :nextAttemptAt,
       deadline_at = :deadlineAt, last_error = :lastError, version = version + 1, updated_at = now()
 WHERE tenant_id = :tenantId AND id = :id
RETURNING version`);

/**
 * Due orders of any tenant, oldest due first; each claimed one is pushed out by a lease of twice its
 * connector's request timeout (and a margin), so another worker (or this one after a crash) takes it
 * again only once a call in flight has surely ended.
 */
export const CLAIM_DUE_ORDERS = sql<{ limit: number }, { tenant_id: string; id: string }>(`
WITH due AS (
  SELECT tenant_id, id, connector_id FROM payment_orders
   WHERE next_attempt_at <= now()
   ORDER BY next_attempt_at
   LIMIT :limit
   FOR UPDATE SKIP LOCKED
)
UPDATE payment_orders o
   SET next_attempt_at = now() + make_interval(secs => c.request_timeout_ms * 2 / 1000.0 + 5)
  FROM due JOIN payment_connectors c ON c.tenant_id = due.tenant_id AND c.id = due.connector_id
 WHERE o.tenant_id = due.tenant_id AND o.id = due.id
RETURNING o.tenant_id, o.id`);

export interface StepRow {
  seq: number;
  step: string;
  outcome: string;
  status_after: PaymentOrderStatus;
  detail: Record<string, unknown>;
  actor: string;
  at: Date;
}

export interface NewStepParams {
  tenantId: string;
  orderId: string;
  step: string;
  outcome: string;
  statusAfter: PaymentOrderStatus;
  detail: string;
  actor: string;
}

/** Under the order's lock, so the next seq is this one's alone. */
export const INSERT_STEP = sql<NewStepParams, { seq: number }>(`
INSERT INTO payment_order_steps (tenant_id, order_id, seq, step, outcome, status_after, detail, actor)
SELECT :tenantId, :orderId, coalesce(max(seq), 0) + 1, :step, :outcome, :statusAfter, :detail::jsonb, :actor
  FROM payment_order_steps WHERE tenant_id = :tenantId AND order_id = :orderId
RETURNING seq`);

export const LIST_STEPS = sql<{ tenantId: string; orderId: string; limit: number }, StepRow>(`
SELECT seq, step, outcome, status_after, detail, actor, at FROM payment_order_steps
 WHERE tenant_id = :tenantId AND order_id = :orderId ORDER BY seq LIMIT :limit`);

/** The latest steps of an order (a ticket's evidence), newest first. */
export const LATEST_STEPS = sql<{ tenantId: string; orderId: string; limit: number }, StepRow>(`
SELECT seq, step, outcome, status_after, detail, actor, at FROM payment_order_steps
 WHERE tenant_id = :tenantId AND order_id = :orderId ORDER BY seq DESC LIMIT :limit`);

export interface StuckOrderRow {
  id: string;
  status: PaymentOrderStatus;
  amount_minor: bigint;
  currency: string;
  connector_name: string;
  source_account_code: string;
  deadline_at: Date;
  attempts: number;
  last_error: string | null;
}

/** Orders past their step's deadline, oldest deadline first. */
export const STUCK_ORDERS = sql<{ tenantId: string; limit: number }, StuckOrderRow>(`
SELECT o.id, o.status, o.amount_minor, o.currency::text AS currency, c.name AS connector_name,
       a.code AS source_account_code, o.deadline_at, o.attempts, o.last_error
  FROM payment_orders o ${ORDER_JOINS}
 WHERE o.tenant_id = :tenantId AND o.deadline_at < now()
 ORDER BY o.deadline_at
 LIMIT :limit`);

export interface StatusCountRow {
  status: PaymentOrderStatus;
  count: bigint;
  stuck: bigint;
}

export const COUNT_BY_STATUS = sql<{ tenantId: string }, StatusCountRow>(`
SELECT status, count(*)::int8 AS count, count(*) FILTER (WHERE deadline_at < now())::int8 AS stuck
  FROM payment_orders WHERE tenant_id = :tenantId GROUP BY status`);
