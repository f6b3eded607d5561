import type { ProviderPaymentStatus } from '../connectors/connector';

// The saga of a payment order, as data: its states, which of them are final, and what a provider's
// state of the payment moves an order to. No I/O here; the saga's use cases carry the moves out.
//
//   reserved --cancel--> cancelled                   (hold voided: compensation before the pivot)
//   reserved --> submitting                          (marked before the provider is called)
//   submitting --unknown--> submitting               (asked again by the same key, with backoff)
//   submitting --refused / rejected--> rejected      (hold voided: the provider will never pay)
//   submitting --accepted--> submitted               (the pivot: from here only completed or returned)
//   submitted --executed--> settled                  (hold posted to the clearing account)
//   submitted --rejected--> rejected                 (hold voided)
//   settled --returned--> returned                   (a new reversing transaction)

export const PAYMENT_ORDER_STATUSES = [
  'reserved',
  'submitting',
  'submitted',
  'settled',
  'returned',
  'rejected',
  'cancelled',
] as const;
export type PaymentOrderStatus = (typeof PAYMENT_ORDER_STATUSES)[number];

/** Nothing more happens to an order in these states. A settled order may still be returned. */
export const FINAL_STATUSES: ReadonlySet<PaymentOrderStatus> = new Set(['returned', 'rejected', 'cancelled']);

/** Before the provider was called, an order can still be called off; after that, never. */
export const CANCELLABLE_STATUSES: ReadonlySet<PaymentOrderStatus> = new Set(['reserved']);

/** States the worker drives (it calls the provider for them); the others wait for something. */
export const DRIVEN_STATUSES: ReadonlySet<PaymentOrderStatus> = new Set(['reserved', 'submitting', 'submitted']);

export type ProviderMove = 'submitted' | 'settled' | 'returned' | 'rejected';

/**
 * The next move of an order on learning the provider's state of its payment, or null when that state
 * says nothing new (a late or repeated webhook, a poll while still pending). Applied again after each
 * move until null: an order still `submitting` that learns `returned` goes submitted, settled, returned,
 * each one transition of its own.
 */
export function nextMove(status: PaymentOrderStatus, provider: ProviderPaymentStatus): ProviderMove | null {
  switch (status) {
    case 'submitting':
      return provider === 'rejected' ? 'rejected' : 'submitted';
    case 'submitted':
      if (provider === 'rejected') return 'rejected';
      return provider === 'pending' ? null : 'settled';
    case 'settled':
      return provider === 'returned' ? 'returned' : null;
    default:
      // reserved: the provider cannot know of it yet; final states do not move.
      return null;
  }
}

/** The derived key handed to the provider: one per order and step, the same on every retry. */
export function submitKey(orderId: string): string {
  return `${orderId}:submit`;
}

/** The external references of the order's postings, which the settlement report's lines carry. */
export function postingRefs(orderId: string): { reserve: string; settle: string; return: string } {
  return { reserve: `${orderId}:reserve`, settle: orderId, return: `${orderId}:return` };
}

/** The two legs of an order: out of the source account, into the connector's clearing account. */
export function legsOf(order: {
  sourceAccountId: string;
  clearingAccountId: string;
  amountMinor: bigint;
  currency: string;
}) {
  const amount = order.amountMinor.toString();
  const { currency } = order;
  return [
    { account: order.sourceAccountId, direction: 'debit', amount, currency },
    { account: order.clearingAccountId, direction: 'credit', amount, currency },
  ];
}
