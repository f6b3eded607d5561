import { DomainError } from '@ledger/errors';
import type { postTransactionSchema } from '@ledger/ledger';
import { z } from 'zod';

/**
 * A value of a mapping: `$.a.b` reads that path of the inbound message (`{id, type, data}`), anything
 * else is taken literally. E.g. `{"account": "assets:gateway", "amount": "$.data.amount"}`.
 */
const valueSchema = z.string().min(1).max(200);

export const postingTemplateSchema = z.strictObject({
  description: valueSchema.optional(),
  externalRef: valueSchema.optional(),
  entries: z
    .array(
      z.strictObject({
        account: valueSchema,
        direction: z.enum(['debit', 'credit']),
        amount: valueSchema,
        currency: valueSchema,
      }),
    )
    .min(2)
    .max(20),
});

/** Message type -> the posting it makes; a type without a mapping is recorded and ignored. */
export const inboundMappingsSchema = z
  .record(z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'letters, digits and _ . : - only'), postingTemplateSchema)
  .refine((mappings) => Object.keys(mappings).length <= 50, 'at most 50 message types');

export type PostingTemplate = z.infer<typeof postingTemplateSchema>;
export type InboundMappings = z.infer<typeof inboundMappingsSchema>;

export interface InboundMessage {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

function unmappable(path: string, message: string): DomainError {
  return new DomainError('VALIDATION_FAILED', `the message does not fit its mapping: ${path} ${message}`, {
    fields: [{ path, message }],
  });
}

function resolve(value: string, message: InboundMessage): string {
  if (!value.startsWith('$.')) return value;
  let current: unknown = message;
  for (const key of value.slice(2).split('.')) {
    current =
      typeof current === 'object' && current !== null && Object.hasOwn(current, key)
        ? (current as Record<string, unknown>)[key]
        : undefined;
  }
  if (typeof current === 'string' && current.length > 0) return current;
  // Gateways send minor units as JSON integers; only exact ones are taken.
  if (typeof current === 'number' && Number.isSafeInteger(current)) return String(current);
  throw unmappable(value.slice(2), 'is missing, or not a string or an integer');
}

/** A posting request as a client would send it (amounts as strings), before validation. */
export type PostingRequestBody = z.input<typeof postTransactionSchema>;

/** The posting request a message makes under a template (validated afterwards like any posting). */
export function postingRequestOf(
  template: PostingTemplate,
  message: InboundMessage,
  sourceName: string,
): PostingRequestBody {
  return {
    externalRef: template.externalRef === undefined ? undefined : resolve(template.externalRef, message),
    description: template.description === undefined ? undefined : resolve(template.description, message),
    metadata: { inbound: { source: sourceName, messageId: message.id, type: message.type } },
    entries: template.entries.map((entry) => ({
      account: resolve(entry.account, message),
      direction: entry.direction,
      amount: resolve(entry.amount, message),
      currency: resolve(entry.currency, message),
    })),
  };
}
