import { currencySchema, metadataSchema, positiveAmountSchema } from '@ledger/ledger';
import { z } from 'zod';

/** Printable text of at most `lengthMax` characters. */
const text = (lengthMax: number) =>
  z
    .string()
    .min(1)
    .max(lengthMax)
    .regex(/^[^\p{Cc}]*$/u, 'no control characters');

export const counterpartySchema = z.strictObject({
  name: text(140),
  iban: z
    .string()
    .regex(/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/, 'an IBAN without spaces')
    .optional(),
  accountNumber: text(64).optional(),
  bankCode: text(64).optional(),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, 'an ISO 3166 country code')
    .optional(),
});

export const createPaymentOrderSchema = z.strictObject({
  /** A connector's name or id. */
  connector: z.string().min(1).max(64),
  direction: z.enum(['payout', 'refund']),
  /** The account the money leaves from (code or id); a hold reserves it first. */
  sourceAccount: z.string().min(1).max(128),
  amount: positiveAmountSchema,
  currency: currencySchema,
  counterparty: counterpartySchema,
  /** The caller's own reference, unique per tenant among payment orders. */
  externalRef: text(200).optional(),
  description: text(500).optional(),
  metadata: metadataSchema.default({}),
});

export type CreatePaymentOrderRequest = z.output<typeof createPaymentOrderSchema>;
