/**
 * Building blocks for skill schemas, in plain TypeBox: what a schema publishes (OpenAPI, MCP,
 * /v1/skills) is exactly what the validator checks. None of them adds a `default` on its own.
 */
import { Type, type SchemaOptions, type TLiteral, type TSchema, type TUnion } from "@sinclair/typebox";

/** One of a fixed list of strings. Unlike Elysia's UnionEnum it adds no default: give one only to an optional field. */
export function enumOf<const Values extends readonly string[]>(
  values: Values,
  options: SchemaOptions = {},
): TUnion<TLiteral<Values[number]>[]> {
  return Type.Union(
    values.map((value) => Type.Literal(value)),
    options,
  );
}

/** The value, or null when there is none to give. */
export const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** A calendar date `YYYY-MM-DD` (the pipeline also refuses days that do not exist). */
export const isoDate = (description: string) => Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$", description });

/** One FactorVersion (types.ts) as it appears in an answer. */
export const factorVersionSchema = Type.Object({
  series_id: Type.String(),
  value: Type.Number(),
  observation_date: Type.String(),
  import_id: Type.String(),
});
