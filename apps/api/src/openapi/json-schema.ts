import { currencySchema, instantSchema, positiveAmountSchema } from '@ledger/ledger';
import { z } from 'zod';

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as this document writes it. */
export type JsonSchema = { [keyword: string]: unknown };

/** Digits of a non-negative amount of minor units, no sign, no leading zeros. */
export const AMOUNT_PATTERN = '^(0|[1-9][0-9]*)$';
/** A balance may be below zero on an account that allows it. */
export const SIGNED_AMOUNT_PATTERN = '^(0|-?[1-9][0-9]*)$';

// The ledger's shared field schemas refine strings in ways JSON Schema cannot say (a currency list, a
// digit parser); here is what a client should know of them, wherever they appear.
const FIELD_ANNOTATIONS = new Map<z.ZodType, JsonSchema>([
  [
    positiveAmountSchema,
    {
      pattern: '^[1-9][0-9]*$',
      description: 'A positive amount of minor units as a string of digits ("1050" is 10.50 USD).',
      examples: ['1050'],
    },
  ],
  [currencySchema, { pattern: '^[A-Z]{3}$', description: 'An ISO 4217 currency code.', examples: ['USD'] }],
  [instantSchema, { description: 'An ISO 8601 time with an offset.', examples: ['2026-11-29T10:00:00Z'] }],
]);

const SAFE_INTEGER_MAX = Number.MAX_SAFE_INTEGER;

/** Drops what zod adds that says nothing to a reader: safe-integer bounds, the long date-time regex. */
function tidy(jsonSchema: JsonSchema): void {
  if (jsonSchema.maximum === SAFE_INTEGER_MAX) delete jsonSchema.maximum;
  if (jsonSchema.minimum === -SAFE_INTEGER_MAX) delete jsonSchema.minimum;
  if (jsonSchema.format === 'date-time') delete jsonSchema.pattern;
}

function override(context: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  tidy(context.jsonSchema);
  const annotation = FIELD_ANNOTATIONS.get(context.zodSchema as z.ZodType);
  if (annotation) Object.assign(context.jsonSchema, annotation);
}

/** What a client sends (`input`) or receives (`output`), converted from the zod schema that checks or describes it. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    override,
  }) as JsonSchema;
  return jsonSchema;
}

/** Every schema of a registry (views, errors), with references between them as `#/components/schemas/<id>`. */
export function componentSchemasOf(registry: z.core.$ZodRegistry<{ id: string }>): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(registry, {
    io: 'output',
    target: 'draft-2020-12',
    unrepresentable: 'any',
    override,
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  return Object.fromEntries(
    Object.entries(schemas).map(([id, { $schema: _dialect, $id: _id, ...schema }]) => [id, schema]),
  );
}
