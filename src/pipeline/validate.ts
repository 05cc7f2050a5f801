import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import { Value, type ValueError } from "@sinclair/typebox/value";
import { errors, type FieldProblem } from "../errors.ts";

type Primitive = string | number | boolean | null;

/** What validating against one schema needs, worked out once per schema. */
interface Plan {
  check: TypeCheck<TSchema>;
  /** The schema's own property names: anything else in an input is an unknown field. */
  known: ReadonlySet<string>;
  /**
   * Top-level `[name, default]` pairs when those are the schema's only defaults and each is a plain
   * value: applying them is then all `Value.Default` would do. Undefined for any other schema.
   */
  flatDefaults?: readonly (readonly [string, Primitive])[];
}

const plans = new WeakMap<TSchema, Plan>();

function planFor(schema: TSchema): Plan {
  let plan = plans.get(schema);
  if (!plan) {
    plan = {
      check: TypeCompiler.Compile(schema),
      known: new Set(Object.keys(schema.properties ?? {})),
      flatDefaults: flatDefaultsOf(schema),
    };
    plans.set(schema, plan);
  }
  return plan;
}

const isPrimitive = (value: unknown): value is Primitive =>
  value === null || ["string", "number", "boolean"].includes(typeof value);

function hasDefaultWithin(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (Object.hasOwn(value, "default")) return true;
  return Object.values(value).some(hasDefaultWithin);
}

function flatDefaultsOf(schema: TSchema): Plan["flatDefaults"] {
  if (
    schema.type !== "object" ||
    typeof schema.properties !== "object" ||
    Object.hasOwn(schema, "default") ||
    hasDefaultWithin(schema.additionalProperties)
  ) {
    return undefined;
  }
  const defaults: (readonly [string, Primitive])[] = [];
  for (const [name, property] of Object.entries(schema.properties as Record<string, TSchema>)) {
    const { default: fallback, ...rest } = property;
    if (hasDefaultWithin(rest)) return undefined;
    if (!Object.hasOwn(property, "default")) continue;
    if (!isPrimitive(fallback)) return undefined;
    defaults.push([name, fallback]);
  }
  return defaults;
}

/** The input with its defaults: `Value.Default` on a copy, or (same result) the plain top-level defaults filled into a shallow copy. */
function withDefaults(schema: TSchema, plan: Plan, value: unknown): unknown {
  if (!plan.flatDefaults || typeof value !== "object" || value === null || Array.isArray(value))
    return Value.Default(schema, structuredClone(value));
  const filled: Record<string, unknown> = { ...value };
  for (const [name, fallback] of plan.flatDefaults) if (filled[name] === undefined) filled[name] = fallback;
  return filled;
}

/** The literal values a failing enum-like schema would have accepted, so the caller can fix the request. */
function allowedValues(schema: TSchema): string[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum.map(String);
  if (Array.isArray(schema.anyOf) && schema.anyOf.every((s: TSchema) => "const" in s)) {
    return schema.anyOf.map((s: TSchema) => String(s.const));
  }
  return undefined;
}

/** TypeBox's "Expected integer to be greater or equal to 4" → "must be greater or equal to 4". */
function plainProblem(message: string): string {
  if (message === "Expected required property") return "is required";
  if (message === "Unexpected property") return "is not a known field";
  const items = /^Expected array length to be (greater|less) or equal to (\d+)$/.exec(message);
  if (items) return `must have ${items[1] === "greater" ? "at least" : "at most"} ${items[2]} items`;
  const bounded = /^Expected \w+ to (?:be|match) (.+)$/.exec(message);
  if (bounded) return `must be ${bounded[1]}`;
  const [, typeName] = /^Expected (\w+)$/.exec(message) ?? [];
  if (typeName !== undefined) return `must be ${/^[aeiou]/.test(typeName) ? "an" : "a"} ${typeName}`;
  return message.replace(/^Expected/, "must be");
}

function toProblem(error: ValueError): FieldProblem {
  const field = error.path.replace(/^\//, "").replaceAll("/", ".") || "(body)";
  const allowed = allowedValues(error.schema);
  return allowed && error.value !== undefined
    ? { field, problem: `must be one of ${allowed.join(", ")}`, allowed }
    : { field, problem: plainProblem(error.message), ...(allowed ? { allowed } : {}) };
}

/**
 * Validate a skill's raw input against its schema; defaults are applied, query strings coerced.
 * Unknown fields are refused rather than ignored, so a misspelt optional field never goes unnoticed.
 */
export function validateInput(schema: TSchema, raw: unknown, source: "body" | "query"): unknown {
  if (source === "body" && (typeof raw !== "object" || raw === null || Array.isArray(raw))) {
    throw errors.invalidRequest([{ field: "(body)", problem: "must be a JSON object" }]);
  }
  const plan = planFor(schema);
  const value = withDefaults(schema, plan, source === "query" ? Value.Convert(schema, structuredClone(raw)) : raw);
  // Own properties only: `constructor`, `toString` or `__proto__` are unknown fields like any other.
  const problems: FieldProblem[] = [];
  for (const field of Object.keys(value as object))
    if (!plan.known.has(field)) problems.push({ field, problem: "is not a known field" });
  const check = plan.check;
  if (!check.Check(value)) {
    const seen = new Set<string>();
    for (const error of check.Errors(value)) {
      const problem = toProblem(error);
      if (seen.has(problem.field)) continue; // the first problem per field is the useful one
      seen.add(problem.field);
      problems.push(problem);
    }
  }
  if (problems.length > 0) throw errors.invalidRequest(problems);
  return value;
}
