import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, currencySchema, instantSchema, metadataSchema } from '@ledger/ledger';
import { z } from 'zod';

export const pageQuerySchema = z.strictObject({
  cursor: z.string().min(1).max(200).optional().meta({ description: 'The `nextCursor` of the previous page.' }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(PAGE_SIZE_MAX)
    .default(PAGE_SIZE_DEFAULT)
    .meta({ description: 'Page size.' }),
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

const metadataFilterDescription = 'A JSON object the metadata must contain, e.g. `{"tier":"gold"}`.';

export const transactionsQuerySchema = pageQuerySchema.extend({
  account: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .meta({ description: 'Only transactions with an entry on this account (id or code).' }),
  externalRef: z.string().min(1).max(255).optional(),
  status: z.enum(['posted', 'pending', 'voided', 'expired']).optional(),
  metadata: metadataFilterSchema.optional().meta({ description: metadataFilterDescription }),
  from: instantSchema.optional().meta({ description: 'Created at or after this time.' }),
  to: instantSchema.optional().meta({ description: 'Created before this time.' }),
});

export const accountsQuerySchema = pageQuerySchema.extend({
  currency: currencySchema.optional(),
  codePrefix: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .meta({ description: 'Codes starting with this, e.g. `liabilities:`.' }),
  metadata: metadataFilterSchema.optional().meta({ description: metadataFilterDescription }),
});

const sourceName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/, "a source's name: letters, digits and _ . : - only, at most 64");

export const importsQuerySchema = pageQuerySchema.extend({
  source: sourceName.optional().meta({ description: "Only this source's imports (by name)." }),
});

export const statementLinesQuerySchema = pageQuerySchema.extend({
  source: sourceName.meta({ description: 'The source (by name) whose lines to list.' }),
  status: z
    .enum(['unmatched', 'matched'])
    .optional()
    .meta({ description: '`matched`: a match holds the line; `unmatched`: none does. Default: both.' }),
});

export const balanceQuerySchema = z.strictObject({
  asOf: instantSchema.optional().meta({ description: 'The time of the balance; default: now.' }),
});

export const eventsQuerySchema = z.strictObject({
  after: z.string().min(1).max(200).optional().meta({ description: 'The `nextCursor` of the previous read.' }),
  limit: z.coerce.number().int().min(1).max(500).default(100).meta({ description: 'Events at most.' }),
});

/** The body of a POST that takes none (absent, or `{}`). */
export const emptyBodySchema = z.strictObject({}).default({});
