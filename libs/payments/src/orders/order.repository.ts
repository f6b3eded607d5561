import { Injectable } from '@nestjs/common';
import { Database } from '@ledger/db';
import {
  CLAIM_DUE_ORDERS,
  COUNT_BY_STATUS,
  GET_ORDER,
  GET_ORDER_BY_REF,
  INSERT_ORDER,
  INSERT_STEP,
  LATEST_STEPS,
  LIST_ORDERS,
  LIST_STEPS,
  LOCK_ORDER,
  type ListOrdersParams,
  type NewOrderParams,
  type NewStepParams,
  type OrderChange,
  type OrderRow,
  STUCK_ORDERS,
  type StatusCountRow,
  type StepRow,
  type StuckOrderRow,
  UPDATE_ORDER,
} from './orders.sql';

export type NewOrder = Omit<NewOrderParams, 'counterparty' | 'metadata'> & {
  counterparty: Record<string, unknown>;
  metadata: Record<string, unknown>;
};
export type NewStep = Omit<NewStepParams, 'detail'> & { detail: Record<string, unknown> };

/** Payment orders and their steps. */
@Injectable()
export class OrderRepository {
  constructor(private readonly db: Database) {}

  /** False when the tenant has an order with that externalRef already. */
  async insert(order: NewOrder): Promise<boolean> {
    const rows = await this.db.query(INSERT_ORDER, {
      ...order,
      counterparty: JSON.stringify(order.counterparty),
      metadata: JSON.stringify(order.metadata),
    });
    return rows.length === 1;
  }

  async get(tenantId: string, id: string): Promise<OrderRow | undefined> {
    const [row] = await this.db.query(GET_ORDER, { tenantId, id });
    return row;
  }

  async getByExternalRef(tenantId: string, externalRef: string): Promise<OrderRow | undefined> {
    const [row] = await this.db.query(GET_ORDER_BY_REF, { tenantId, externalRef });
    return row;
  }

  /** In the caller's transaction; the row stays locked until it ends. */
  async lock(tenantId: string, id: string): Promise<OrderRow | undefined> {
    const [row] = await this.db.query(LOCK_ORDER, { tenantId, id });
    return row;
  }

  async list(params: ListOrdersParams): Promise<OrderRow[]> {
    return this.db.query(LIST_ORDERS, params);
  }

  async update(change: OrderChange): Promise<void> {
    await this.db.query(UPDATE_ORDER, change);
  }

  async claimDue(limit: number): Promise<{ tenantId: string; id: string }[]> {
    const rows = await this.db.query(CLAIM_DUE_ORDERS, { limit });
    return rows.map((row) => ({ tenantId: row.tenant_id, id: row.id }));
  }

  async addStep(step: NewStep): Promise<void> {
    await this.db.query(INSERT_STEP, { ...step, detail: JSON.stringify(step.detail) });
  }

  async steps(tenantId: string, orderId: string, limit: number): Promise<StepRow[]> {
    return this.db.query(LIST_STEPS, { tenantId, orderId, limit });
  }

  async latestSteps(tenantId: string, orderId: string, limit: number): Promise<StepRow[]> {
    return this.db.query(LATEST_STEPS, { tenantId, orderId, limit });
  }

  async stuck(tenantId: string, limit: number): Promise<StuckOrderRow[]> {
    return this.db.query(STUCK_ORDERS, { tenantId, limit });
  }

  async countByStatus(tenantId: string): Promise<StatusCountRow[]> {
    return this.db.query(COUNT_BY_STATUS, { tenantId });
  }
}
