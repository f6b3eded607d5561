import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, currencySchema, instantSchema, metadataSchema } from '@ledger/ledger';
import { z } from 'zod';

export const pageQuerySchema = z.strictObject({
  cursor: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});

/** `metadata={"tier":"gold"}`: matches objects whose metadata contains these keys and values. */
const metadataFilterSchema = z
  .string()
  .max(2048)
  .transform((text, context) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      context.addIssue({ code: 'custom', message: 'must be a JSON object, e.g. {"tier":"gold"}' });
      return z.NEVER;
    }
  })
  .pipe(metadataSchema);

export const transactionsQuerySchema = pageQuerySchema.extend({
  account: z.string().min(1).max(128).optional(),
  externalRef: z.string().min(1).max(255).optional(),
  status: z.enum(['posted', 'pending', 'voided', 'expired']).optional(),
  metadata: metadataFilterSchema.optional(),
  from: instantSchema.optional(),
  to: instantSchema.optional(),
});

export const accountsQuerySchema = pageQuerySchema.extend({
  currency: currencySchema.optional(),
  codePrefix: z.string().min(1).max(128).optional(),
  metadata: metadataFilterSchema.optional(),
});

export const balanceQuerySchema = z.strictObject({ asOf: instantSchema.optional() });

export const eventsQuerySchema = z.strictObject({
  after: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/** The body of a POST that takes none (absent, or `{}`). */
export const emptyBodySchema = z.strictObject({}).default({});
