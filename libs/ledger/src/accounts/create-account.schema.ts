import { z } from 'zod';
import { currencySchema, metadataSchema, sideSchema } from '../domain/field-schemas';
import { ACCOUNT_NAME_LENGTH_MAX } from '../domain/limits';
import { isUuid } from '@ledger/ids';

export const createAccountSchema = z.strictObject({
  code: z
    .string()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/,
      'letters, digits and _ . : - only, at most 128, e.g. "assets:bank:main"',
    )
    .refine((code) => !isUuid(code), { message: 'must not look like a UUID (ids and codes share one namespace)' }),
  currency: currencySchema,
  normalBalance: sideSchema,
  allowNegative: z.boolean().default(false),
  name: z.string().min(1).max(ACCOUNT_NAME_LENGTH_MAX).optional(),
  metadata: metadataSchema.default({}),
});

export type CreateAccountRequest = z.infer<typeof createAccountSchema>;
