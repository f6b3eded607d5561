import type { PaymentOrderStatus } from '../domain/payment-order';
import type { OrderRow, StepRow } from './orders.sql';

export interface PaymentOrderStepView {
  seq: number;
  step: string;
  outcome: string;
  /** The order's status once the step was done. */
  status: PaymentOrderStatus;
  /** What the provider answered (status, body, time taken), or what the ledger did. */
  detail: Record<string, unknown>;
  actor: string;
  at: string;
}

export interface PaymentOrderView {
  id: string;
  connector: string;
  direction: 'payout' | 'refund';
  sourceAccount: string;
  amount: string;
  currency: string;
  counterparty: Record<string, unknown>;
  externalRef: string | null;
  description: string | null;
  metadata: Record<string, unknown>;
  status: PaymentOrderStatus;
  /** Past its step's deadline: a `stuck_payment_order` ticket is (or will be, at the next run) open for it. */
  stuck: boolean;
  holdId: string;
  settleTransactionId: string | null;
  returnTransactionId: string | null;
  provider: { paymentId: string | null; status: string | null };
  attempts: number;
  nextAttemptAt: string | null;
  deadlineAt: string | null;
  lastError: string | null;
  actor: string;
  createdAt: string;
  updatedAt: string;
  steps?: PaymentOrderStepView[];
}

export function stepView(row: StepRow): PaymentOrderStepView {
  return {
    seq: row.seq,
    step: row.step,
    outcome: row.outcome,
    status: row.status_after,
    detail: row.detail,
    actor: row.actor,
    at: row.at.toISOString(),
  };
}

export function paymentOrderView(row: OrderRow, now: Date, steps?: readonly StepRow[]): PaymentOrderView {
  return {
    id: row.id,
    connector: row.connector_name,
    direction: row.direction,
    sourceAccount: row.source_account_code,
    amount: row.amount_minor.toString(),
    currency: row.currency,
    counterparty: row.counterparty,
    externalRef: row.external_ref,
    description: row.description,
    metadata: row.metadata,
    status: row.status,
    stuck: row.deadline_at !== null && row.deadline_at < now,
    holdId: row.hold_id,
    settleTransactionId: row.settle_transaction_id,
    returnTransactionId: row.return_transaction_id,
    provider: { paymentId: row.provider_payment_id, status: row.provider_status },
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at?.toISOString() ?? null,
    deadlineAt: row.deadline_at?.toISOString() ?? null,
    lastError: row.last_error,
    actor: row.actor,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    ...(steps === undefined ? {} : { steps: steps.map(stepView) }),
  };
}
