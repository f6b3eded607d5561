import { isCurrencyCode, MoneyError, parseMinorUnits } from '@ledger/money';
import { z } from 'zod';

/** `Idempotency-Key`: 1 to 255 printable ASCII characters. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;
const REFERENCE_CHARS_MAX = 255;
const NAME_CHARS_MAX = 140;
const ACCOUNT_CHARS_MAX = 34;
const BANK_CODE_CHARS_MAX = 35;
const DESCRIPTION_CHARS_MAX = 500;

export interface SimCounterparty {
  name: string;
  iban?: string;
  accountNumber?: string;
  bankCode?: string;
  country?: string;
}

export interface PaymentRequest {
  reference: string;
  direction: 'payout' | 'refund';
  amountMinor: bigint;
  currency: string;
  counterparty: SimCounterparty;
  description: string | null;
}

const minorUnits = z.string().transform((text, context) => {
  try {
    const amountMinor = parseMinorUnits(text);
    if (amountMinor > 0n) return amountMinor;
    context.addIssue({ code: 'custom', message: 'amount must be more than 0' });
  } catch (error) {
    if (!(error instanceof MoneyError)) throw error;
    context.addIssue({ code: 'custom', message: error.message });
  }
  return z.NEVER;
});

// Strict: a field the contract does not have is a client mistake worth saying, not something to drop.
export const paymentRequestSchema = z.strictObject({
  reference: z.string().min(1).max(REFERENCE_CHARS_MAX),
  direction: z.enum(['payout', 'refund']),
  amount: minorUnits,
  currency: z.string().refine(isCurrencyCode, 'not a supported ISO 4217 currency'),
  counterparty: z.strictObject({
    name: z.string().min(1).max(NAME_CHARS_MAX),
    iban: z.string().min(1).max(ACCOUNT_CHARS_MAX).optional(),
    accountNumber: z.string().min(1).max(ACCOUNT_CHARS_MAX).optional(),
    bankCode: z.string().min(1).max(BANK_CODE_CHARS_MAX).optional(),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .optional(),
  }),
  description: z.string().max(DESCRIPTION_CHARS_MAX).nullable().default(null),
});

export function toPaymentRequest(body: z.infer<typeof paymentRequestSchema>): PaymentRequest {
  const { amount, ...rest } = body;
  return { ...rest, amountMinor: amount };
}

/**
 * What "the same body" means for a repeated key: the request's fields in a fixed order, so that a client
 * writing its JSON keys in another order, or leaving out `description: null`, still repeats itself.
 */
export function requestFingerprint(request: PaymentRequest): string {
  const { name, iban, accountNumber, bankCode, country } = request.counterparty;
  return JSON.stringify([
    request.reference,
    request.direction,
    request.amountMinor.toString(),
    request.currency,
    [name, iban ?? null, accountNumber ?? null, bankCode ?? null, country ?? null],
    request.description,
  ]);
}
