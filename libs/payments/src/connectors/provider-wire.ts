// The provider's JSON as docs/connector-contract.md describes it, read at the edge with zod. The simulator
// (apps/provider-sim) writes the same contract on its own, on purpose: the client and the provider are the
// two sides of one document, and a misreading on either side shows up in their tests against each other.
import { z } from 'zod';
import type { ProviderNotification, ProviderPayment } from './connector';

/** The header that carries a webhook's `t=<unix>,v1=<hex>` signature. */
export const PROVIDER_SIGNATURE_HEADER = 'Provider-Signature';
/** A webhook body larger than this is not one of ours; the provider's are a few hundred bytes. */
export const WEBHOOK_BODY_BYTES_MAX = 64 * 1024;
/** Ids, keys and references: the contract allows up to 255 characters. */
const IDENTIFIER_CHARS_MAX = 255;
const REASON_CHARS_MAX = 1000;

const identifier = z.string().min(1).max(IDENTIFIER_CHARS_MAX);
const instant = z.iso.datetime({ offset: true });

const paymentSchema = z
  .object({
    id: identifier,
    idempotencyKey: identifier,
    reference: identifier,
    status: z.enum(['pending', 'executed', 'rejected', 'returned']),
    amount: z.string().regex(/^(?:0|[1-9][0-9]{0,18})$/),
    currency: z.string().regex(/^[A-Z]{3}$/),
    reason: z.string().max(REASON_CHARS_MAX).nullable(),
    executedAt: instant.nullable(),
    returnedAt: instant.nullable(),
  })
  // A state the provider cannot be in is an answer we cannot read, not one to guess at.
  .refine((payment) => (payment.executedAt !== null) === ['executed', 'returned'].includes(payment.status), {
    message: 'executedAt must be set exactly when the payment was executed',
  })
  .refine((payment) => (payment.returnedAt !== null) === (payment.status === 'returned'), {
    message: 'returnedAt must be set exactly when the payment was returned',
  });

export const errorBodySchema = z.object({
  error: z.object({ code: z.string().min(1).max(100), message: z.string().max(REASON_CHARS_MAX).optional() }),
});

const webhookSchema = z.object({
  id: identifier,
  type: z.enum(['payment.executed', 'payment.rejected', 'payment.returned']),
  payment: paymentSchema,
});

export type WirePayment = z.infer<typeof paymentSchema>;

function toProviderPayment(wire: WirePayment): ProviderPayment {
  return {
    providerId: wire.id,
    idempotencyKey: wire.idempotencyKey,
    reference: wire.reference,
    status: wire.status,
    amountMinor: BigInt(wire.amount),
    currency: wire.currency,
    reason: wire.reason,
    executedAt: wire.executedAt,
    returnedAt: wire.returnedAt,
  };
}

/** The payment in a 2xx body, or undefined when the body is not one. */
export function readPayment(body: unknown): ProviderPayment | undefined {
  const parsed = paymentSchema.safeParse(body);
  return parsed.success ? toProviderPayment(parsed.data) : undefined;
}

/** The provider's `{error:{code,message}}`, or undefined when a 4xx carries something else (a proxy's page). */
export function readError(body: unknown): { code: string; message: string } | undefined {
  const parsed = errorBodySchema.safeParse(body);
  return parsed.success ? { code: parsed.data.error.code, message: parsed.data.error.message ?? '' } : undefined;
}

export function readNotification(body: unknown): ProviderNotification | undefined {
  const parsed = webhookSchema.safeParse(body);
  return parsed.success ? { eventId: parsed.data.id, payment: toProviderPayment(parsed.data.payment) } : undefined;
}
