import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, instantSchema } from '@ledger/ledger';
import { z } from 'zod';

export const pageQuerySchema = z.strictObject({
  cursor: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});

export const transactionsQuerySchema = pageQuerySchema.extend({
  account: z.string().min(1).max(128).optional(),
  externalRef: z.string().min(1).max(255).optional(),
  from: instantSchema.optional(),
  to: instantSchema.optional(),
});

export const eventsQuerySchema = z.strictObject({
  after: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
