import assert from 'node:assert/strict';
import { z } from 'zod';

/**
 * The answers' shapes, each registered once under the name it has in `#/components/schemas`: the
 * document, the generated client types and the contract test all read them from here.
 */
export const componentRegistry = z.registry<{ id: string }>();

/** Registers `schema` as the component `id` and returns it, to be used in other views and in `schemaRef`. */
export function component<Schema extends z.ZodType>(id: string, schema: Schema): Schema {
  assert.ok(!componentRegistry.has(schema), `schema registered twice (as ${id})`);
  componentRegistry.add(schema, { id });
  return schema;
}

/** `{"$ref": "#/components/schemas/<id>"}` of a registered schema. */
export function schemaRef(schema: z.ZodType): { $ref: string } {
  const id = componentRegistry.get(schema)?.id;
  assert.ok(id !== undefined, 'schemaRef of a schema that is not a component');
  return { $ref: `#/components/schemas/${id}` };
}

/** `{data: [...], nextCursor}`: every list answers this shape (`nextCursor` null on the last page). */
export function pageOf<Item extends z.ZodType>(id: string, item: Item, description: string) {
  return component(
    id,
    z
      .strictObject({
        data: z.array(item),
        nextCursor: z.string().nullable().meta({ description: 'Pass as `cursor` for the next page; null: no more.' }),
      })
      .meta({ description }),
  );
}

/** Mutual assignability: a view type and its schema's output describe the same values. */
export type Same<Left, Right> = [Left] extends [Right] ? ([Right] extends [Left] ? true : false) : false;
/** Fails to compile unless its argument is `true`. */
export type Assert<Condition extends true> = Condition;
/** `View` with the fields `Keys` widened to string: where a view's type says string of what is always an enum. */
export type Widened<View, Keys extends keyof View> = Omit<View, Keys> & { [Key in Keys]: string };
