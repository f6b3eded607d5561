import { z } from 'zod';
import {
  currencySchema,
  identifierSchema,
  instantSchema,
  metadataSchema,
  positiveAmountSchema,
  sideSchema,
} from '../domain/field-schemas';
import { DESCRIPTION_LENGTH_MAX, EXTERNAL_REF_LENGTH_MAX, LEGS_PER_TRANSACTION_MAX } from '../domain/limits';

export const legSchema = z.strictObject({
  account: z.string().min(1).max(128),
  direction: sideSchema,
  amount: positiveAmountSchema,
  currency: currencySchema,
});

export const postTransactionSchema = z.strictObject({
  externalRef: identifierSchema(EXTERNAL_REF_LENGTH_MAX).optional(),
  description: z.string().max(DESCRIPTION_LENGTH_MAX).optional(),
  effectiveAt: instantSchema.optional(),
  metadata: metadataSchema.default({}),
  entries: z.array(legSchema).min(2).max(LEGS_PER_TRANSACTION_MAX),
  /** A hold: the amounts are reserved until posted, voided, or expired at expiresAt. */
  pending: z.strictObject({ expiresAt: instantSchema }).optional(),
});

export type PostTransactionRequest = z.infer<typeof postTransactionSchema>;
