import type { NewEvent } from '@ledger/outbox';
import type { PaymentOrderStatus } from '../domain/payment-order';

/** What a `payment_order.<status>` event says, whichever step made it. */
export interface OrderEventFacts {
  id: string;
  /** The order's version once the change is written (1 for its reservation). */
  version: number;
  status: PaymentOrderStatus;
  previousStatus: PaymentOrderStatus | null;
  connector: string;
  amountMinor: bigint;
  currency: string;
  externalRef: string | null;
  providerPaymentId: string | null;
  /** The step's transaction: the hold, the settling posting or the return. */
  transactionId: string;
}

/** The outbox event of an order entering a status. */
export function orderEvent(facts: OrderEventFacts): NewEvent {
  return {
    type: `payment_order.${facts.status}`,
    aggregateType: 'payment_order',
    aggregateId: facts.id,
    aggregateVersion: BigInt(facts.version),
    data: {
      paymentOrderId: facts.id,
      status: facts.status,
      previousStatus: facts.previousStatus,
      connector: facts.connector,
      amount: facts.amountMinor.toString(),
      currency: facts.currency,
      externalRef: facts.externalRef,
      providerPaymentId: facts.providerPaymentId,
      transactionId: facts.transactionId,
    },
  };
}
