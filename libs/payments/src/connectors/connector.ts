// What the saga needs of a payment provider, whatever the provider is. A connector never throws for a
// provider's answer: a definite answer is a value, and anything else (a timeout, a reset connection, a
// 5xx, an answer it cannot read) is `unknown`, never a failure: the order's money may have moved.

/** Where the money goes. Only what the provider needs to pay; the ledger keeps it on the order. */
export interface Counterparty {
  name: string;
  iban?: string;
  accountNumber?: string;
  bankCode?: string;
  country?: string;
}

export interface SubmitRequest {
  /** `<order id>:submit`: the provider executes each key at most once, and answers status by it. */
  idempotencyKey: string;
  /** The order id: the provider's settlement report names each payment by it. */
  reference: string;
  direction: 'payout' | 'refund';
  amountMinor: bigint;
  currency: string;
  counterparty: Counterparty;
  description: string | null;
}

/** The provider's own state of one payment. `returned` implies it was executed first. */
export type ProviderPaymentStatus = 'pending' | 'executed' | 'rejected' | 'returned';

/** What the provider holds for one idempotency key. */
export interface ProviderPayment {
  providerId: string;
  idempotencyKey: string;
  reference: string;
  status: ProviderPaymentStatus;
  amountMinor: bigint;
  currency: string;
  /** Why it was rejected or returned, as the provider says it. */
  reason: string | null;
  executedAt: string | null;
  returnedAt: string | null;
}

/** A provider's answer as the saga reads it. `detail` is kept on the order's step as evidence. */
export type ProviderAnswer =
  | { kind: 'payment'; payment: ProviderPayment; detail: Record<string, unknown> }
  /** The provider refused the request for good (4xx): it did not and will not execute it. */
  | { kind: 'refused'; reason: string; detail: Record<string, unknown> }
  /** status only: the provider has nothing under this key (it never received the submit). */
  | { kind: 'not_found'; detail: Record<string, unknown> }
  /** No definite answer: a timeout, a reset, a 5xx, an unreadable body. */
  | { kind: 'unknown'; reason: string; detail: Record<string, unknown> };

/** A provider's webhook once its signature verified: a hint that a payment changed, with its state. */
export interface ProviderNotification {
  /** The provider's event id (repeats of one event carry the same id). */
  eventId: string;
  payment: ProviderPayment;
}

export type WebhookCheck =
  | { ok: true; notification: ProviderNotification }
  | { ok: false; reason: 'bad_signature' | 'unreadable' };

/** A registered connector's settings, as the saga hands them to its implementation. */
export interface ConnectorSettings {
  baseUrl: string;
  /** The bearer token the provider expects. */
  secret: string;
  /** The secret the provider signs its webhooks with. */
  webhookSecret: string;
  /** A request unanswered after this long is an unknown outcome. */
  requestTimeoutMs: number;
}

export interface PaymentConnector {
  submit(request: SubmitRequest): Promise<ProviderAnswer>;
  status(idempotencyKey: string): Promise<ProviderAnswer>;
  /** Verifies the signature over the raw body first; only then reads it. */
  verifyWebhook(signatureHeader: string | undefined, rawBody: Buffer, nowSeconds: number): WebhookCheck;
}

/**
 * The statement format of an HTTP connector's settlement report: the built-in bank CSV layout (`date,
 * value date, amount, currency, reference, description, counterparty`; signed major units, negative is
 * money out of the clearing account). A payout's row carries the order id as its reference, its return's row
 * `<order id>:return`, the external references of the settling and the returning transactions.
 */
export const SETTLEMENT_REPORT_FORMAT = 'csv:bank';
