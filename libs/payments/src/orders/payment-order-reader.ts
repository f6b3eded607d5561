import { Injectable } from '@nestjs/common';
import { stepView, type PaymentOrderStepView } from './payment-order.view';
import { OrderRepository } from './order.repository';

/** Steps of a stuck order given as its ticket's evidence: the latest ones. */
export const STUCK_EVIDENCE_STEPS_MAX = 10;

export interface StuckPaymentOrder {
  id: string;
  status: string;
  amountMinor: bigint;
  currency: string;
  connector: string;
  sourceAccount: string;
  deadlineAt: Date;
  attempts: number;
  lastError: string | null;
  /** The latest steps, newest first. */
  steps: PaymentOrderStepView[];
}

/** How other libs (the reconciler) read payment orders: orders past their step's deadline. */
@Injectable()
export class PaymentOrderReader {
  constructor(private readonly orders: OrderRepository) {}

  async stuckOrders(tenantId: string, limit: number): Promise<StuckPaymentOrder[]> {
    const rows = await this.orders.stuck(tenantId, limit);
    const stuck: StuckPaymentOrder[] = [];
    for (const row of rows) {
      const steps = await this.orders.latestSteps(tenantId, row.id, STUCK_EVIDENCE_STEPS_MAX);
      stuck.push({
        id: row.id,
        status: row.status,
        amountMinor: row.amount_minor,
        currency: row.currency,
        connector: row.connector_name,
        sourceAccount: row.source_account_code,
        deadlineAt: row.deadline_at,
        attempts: row.attempts,
        lastError: row.last_error,
        steps: steps.map(stepView),
      });
    }
    return stuck;
  }
}
