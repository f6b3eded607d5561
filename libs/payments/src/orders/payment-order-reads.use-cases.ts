import { Injectable } from '@nestjs/common';
import { decodeIdCursor, pageOf } from '@ledger/db';
import { DomainError } from '@ledger/errors';
import { isUuid } from '@ledger/ids';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '@ledger/ledger';
import type { PaymentOrderStatus } from '../domain/payment-order';
import { OrderRepository } from './order.repository';
import { type PaymentOrderView, paymentOrderView } from './payment-order.view';

/** The steps shown with an order: a timeline longer than this is cut at its start (the first steps). */
export const STEPS_SHOWN_MAX = 500;

@Injectable()
export class GetPaymentOrderUseCase {
  constructor(private readonly orders: OrderRepository) {}

  async execute(command: { tenantId: string; id: string }): Promise<PaymentOrderView> {
    const order = isUuid(command.id) ? await this.orders.get(command.tenantId, command.id.toLowerCase()) : undefined;
    if (order === undefined) throw new DomainError('NOT_FOUND', `payment order ${command.id} not found`);
    const steps = await this.orders.steps(command.tenantId, order.id, STEPS_SHOWN_MAX);
    return paymentOrderView(order, new Date(), steps);
  }
}

export interface ListPaymentOrdersCommand {
  tenantId: string;
  status?: PaymentOrderStatus;
  connector?: string;
  /** Only those past their step's deadline. */
  stuck?: boolean;
  cursor?: string;
  limit?: number;
}

@Injectable()
export class ListPaymentOrdersUseCase {
  constructor(private readonly orders: OrderRepository) {}

  async execute(command: ListPaymentOrdersCommand): Promise<{ data: PaymentOrderView[]; nextCursor: string | null }> {
    const limit = Math.min(command.limit ?? PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX);
    const rows = await this.orders.list({
      tenantId: command.tenantId,
      status: command.status ?? null,
      connector: command.connector ?? null,
      stuck: command.stuck ?? false,
      afterId: command.cursor === undefined ? null : decodeIdCursor(command.cursor),
      limit: limit + 1,
    });
    const now = new Date();
    const page = pageOf(rows, limit, (last) => [last.id]);
    return { data: page.data.map((row) => paymentOrderView(row, now)), nextCursor: page.nextCursor };
  }
}

/** Orders per status, and how many of each are stuck: the Payments page's header. */
@Injectable()
export class CountPaymentOrdersUseCase {
  constructor(private readonly orders: OrderRepository) {}

  async execute(command: { tenantId: string }): Promise<{
    byStatus: Partial<Record<PaymentOrderStatus, number>>;
    stuck: number;
  }> {
    const rows = await this.orders.countByStatus(command.tenantId);
    return {
      byStatus: Object.fromEntries(rows.map((row) => [row.status, Number(row.count)])),
      stuck: rows.reduce((sum, row) => sum + Number(row.stuck), 0),
    };
  }
}
