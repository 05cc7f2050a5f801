/**
 * Example values for a JSON Schema, for the OpenAPI document: a field's own `examples` or `default`
 * first, then its enumeration, then a value of its type that satisfies its bounds. Objects carry
 * their required fields and every optional one that states an example.
 */
type Schema = {
  type?: string | string[];
  examples?: unknown[];
  default?: unknown;
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minItems?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  pattern?: string;
};

const PATTERN_EXAMPLES: [RegExp, string][] = [
  [/^\^\\d\{4\}-\\d\{2\}-\\d\{2\}\$$/, "2026-10-09"],
  [/rcpt_/, "rcpt_01JD2ZQ8W6Y3K7M1N4P5R8T0VX"],
  [/alrt_/, "alrt_01JD2ZQZ1B4D6G9J2L5N8Q0S3V"],
];

export function exampleOf(schema: Schema): unknown {
  if (schema.examples && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.const !== undefined) return schema.const;
  const members = schema.anyOf ?? schema.oneOf;
  if (members) {
    const member = members.find((candidate) => candidate.type !== "null") ?? members[0];
    if (!member) throw new Error("an anyOf/oneOf schema without members has no example");
    return exampleOf(member);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "object": {
      const example: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        const stated = property.examples !== undefined || property.default !== undefined;
        if (schema.required?.includes(name) || stated) example[name] = exampleOf(property);
      }
      return example;
    }
    case "array":
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => exampleOf(schema.items ?? {}));
    case "integer":
      return Math.max(schema.minimum ?? 1, (schema.exclusiveMinimum ?? 0) + 1);
    case "number":
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case "boolean":
      return false;
    case "null":
      return null;
    case "string": {
      const { pattern } = schema;
      const byPattern = pattern ? PATTERN_EXAMPLES.find(([test]) => test.test(pattern))?.[1] : undefined;
      return byPattern ?? "x".repeat(Math.max(1, schema.minLength ?? 1));
    }
    default:
      return {};
  }
}
