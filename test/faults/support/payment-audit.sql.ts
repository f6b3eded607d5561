// Read-only queries of one tenant's payment orders after the kills, each a query a reviewer can read as SQL.

export interface OrderAuditRow {
  id: string;
  status: string;
  amount_minor: string;
  hold_id: string;
  settle_transaction_id: string | null;
  return_transaction_id: string | null;
  /** Past its step's deadline: a stuck order, which a ticket shows. */
  stuck: boolean;
}

export const ORDERS = `
SELECT id::text, status, amount_minor::text, hold_id::text, settle_transaction_id::text,
       return_transaction_id::text, coalesce(deadline_at < now(), false) AS stuck
  FROM payment_orders WHERE tenant_id = $1 ORDER BY id`;

export const STATUS_COUNTS = `
SELECT status, count(*)::int AS n, count(*) FILTER (WHERE deadline_at < now())::int AS stuck
  FROM payment_orders WHERE tenant_id = $1 GROUP BY status ORDER BY status`;

/** Every step of every order, in the order they were written. */
export const STEPS = `
SELECT order_id::text, seq, step, outcome, status_after FROM payment_order_steps
 WHERE tenant_id = $1 ORDER BY order_id, seq`;

/** Every payment order event in the outbox, in the order they were committed. */
export const ORDER_EVENTS = `
SELECT id::text, aggregate_id::text AS order_id, type FROM outbox_events
 WHERE tenant_id = $1 AND aggregate_type = 'payment_order' ORDER BY position`;

/** Each order's hold with whatever resolved it (none, or one: posted or voided). */
export const HOLD_RESOLUTIONS = `
SELECT o.id::text AS order_id, r.id::text AS resolution_id, r.status AS resolution_status
  FROM payment_orders o
  JOIN transactions r ON r.tenant_id = o.tenant_id AND r.hold_id = o.hold_id
 WHERE o.tenant_id = $1 ORDER BY o.id`;
