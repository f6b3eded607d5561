import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { z } from 'zod';

/** The OpenAPI description of what a client sends, derived from the same zod schema that validates it. */
export function requestSchema(schema: z.ZodType): SchemaObject {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  return jsonSchema as SchemaObject;
}
