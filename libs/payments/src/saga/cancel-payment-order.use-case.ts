import { Injectable } from '@nestjs/common';
import { DomainError } from '@ledger/errors';
import { isUuid } from '@ledger/ids';
import { CANCELLABLE_STATUSES } from '../domain/payment-order';
import { OrderRepository } from '../orders/order.repository';
import { STEPS_SHOWN_MAX } from '../orders/payment-order-reads.use-cases';
import { type PaymentOrderView, paymentOrderView } from '../orders/payment-order.view';
import { OrderTransitions } from './order-transitions';

/**
 * Calls an order off before the pivot: its hold is voided (the compensation) and it ends `cancelled`.
 * Once the worker has marked it `submitting`, the provider may have it, so it can no longer be cancelled:
 * only completed, rejected by the provider, or returned.
 */
@Injectable()
export class CancelPaymentOrderUseCase {
  constructor(
    private readonly orders: OrderRepository,
    private readonly transitions: OrderTransitions,
  ) {}

  async execute(command: { tenantId: string; id: string; actor: string }): Promise<PaymentOrderView> {
    const { tenantId, actor } = command;
    const id = command.id.toLowerCase();
    if (!isUuid(id)) throw new DomainError('NOT_FOUND', `payment order ${command.id} not found`);
    const order = await this.transitions.apply(
      tenantId,
      id,
      async (locked) => {
        if (!CANCELLABLE_STATUSES.has(locked.status)) {
          throw new DomainError('PAYMENT_ORDER_NOT_CANCELLABLE', `payment order ${id} is ${locked.status}`, {
            status: locked.status,
          });
        }
        await this.transitions.release(locked);
        return {
          change: { status: 'cancelled', nextAttemptAt: null, deadlineAt: null },
          step: { step: 'cancel', outcome: 'done', detail: { holdId: locked.hold_id } },
        };
      },
      actor,
    );
    if (order === undefined) throw new DomainError('NOT_FOUND', `payment order ${command.id} not found`);
    return paymentOrderView(order, new Date(), await this.orders.steps(tenantId, id, STEPS_SHOWN_MAX));
  }
}
