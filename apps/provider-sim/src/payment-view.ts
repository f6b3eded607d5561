import type { SimPayment } from './sim-payments';

/** A payment as the contract writes it: amounts as digit strings of minor units. */
export interface PaymentView {
  id: string;
  idempotencyKey: string;
  reference: string;
  status: SimPayment['status'];
  amount: string;
  currency: string;
  reason: string | null;
  executedAt: string | null;
  returnedAt: string | null;
}

export function paymentView(payment: SimPayment): PaymentView {
  return {
    id: payment.id,
    idempotencyKey: payment.idempotencyKey,
    reference: payment.request.reference,
    status: payment.status,
    amount: payment.request.amountMinor.toString(),
    currency: payment.request.currency,
    reason: payment.reason,
    executedAt: payment.executedAt,
    returnedAt: payment.returnedAt,
  };
}
