import { isUuid } from '@ledger/ids';
import { z } from 'zod';
import { POSITION_ACCOUNT_PREFIX, ROUNDING_MODES, rateProblem } from '../domain/conversion';
import { currencySchema, identifierSchema, positiveAmountSchema } from '../domain/field-schemas';
import { DESCRIPTION_LENGTH_MAX, EXTERNAL_REF_LENGTH_MAX } from '../domain/limits';

/** A quote holds its rate for at most an hour: a rate is a promise about a market that moves. */
export const QUOTE_TTL_SECONDS_MAX = 3600;

/** Units of `to` per unit of `from`, as decimal text: positive, at most 12 significant digits. */
export const rateSchema = z.string().superRefine((text, context) => {
  const problem = rateProblem(text);
  if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
});

// The desk's own accounts are not a customer's side of a conversion.
const customerAccountSchema = z
  .string()
  .min(1)
  .max(128)
  .refine((ref) => !ref.startsWith(POSITION_ACCOUNT_PREFIX), {
    message: `an FX position account (${POSITION_ACCOUNT_PREFIX}...) is not a side of a conversion`,
  });

const quoteIdSchema = z.string().refine((text) => isUuid(text), { message: 'must be a quote id (a UUID)' });

export const convertSchema = z
  .strictObject({
    from: z.strictObject({ account: customerAccountSchema, amount: positiveAmountSchema, currency: currencySchema }),
    to: z.strictObject({ account: customerAccountSchema, currency: currencySchema }),
    rate: rateSchema.optional(),
    rounding: z.enum(ROUNDING_MODES).default('half-even'),
    externalRef: identifierSchema(EXTERNAL_REF_LENGTH_MAX).optional(),
    description: z.string().max(DESCRIPTION_LENGTH_MAX).optional(),
    quoteId: quoteIdSchema.optional(),
  })
  .superRefine((request, context) => {
    if (request.from.currency === request.to.currency)
      context.addIssue({ code: 'custom', path: ['to', 'currency'], message: 'must differ from from.currency' });
    if (request.rate === undefined && request.quoteId === undefined)
      context.addIssue({ code: 'custom', path: ['rate'], message: 'is required unless quoteId names a quote' });
  });

export type ConvertRequest = z.output<typeof convertSchema>;

export const createQuoteSchema = z
  .strictObject({
    from: z.strictObject({ currency: currencySchema }),
    to: z.strictObject({ currency: currencySchema }),
    rate: rateSchema,
    ttlSeconds: z.number().int().min(1).max(QUOTE_TTL_SECONDS_MAX),
  })
  .superRefine((request, context) => {
    if (request.from.currency === request.to.currency)
      context.addIssue({ code: 'custom', path: ['to', 'currency'], message: 'must differ from from.currency' });
  });

export type CreateQuoteRequest = z.output<typeof createQuoteSchema>;
