import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler, type TypeCheck } from "@sinclair/typebox/compiler";
import { Value, type ValueError } from "@sinclair/typebox/value";
import { errors, type FieldProblem } from "../errors.ts";

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

function checkerFor(schema: TSchema): TypeCheck<TSchema> {
  let check = compiled.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  return check;
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
  const typed = /^Expected (\w+)$/.exec(message);
  if (typed) return `must be ${/^[aeiou]/.test(typed[1]!) ? "an" : "a"} ${typed[1]}`;
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
  let value: unknown = structuredClone(raw);
  if (source === "query") value = Value.Convert(schema, value);
  value = Value.Default(schema, value);
  // Own properties only: `constructor`, `toString` or `__proto__` are unknown fields like any other.
  const unknownFields = Object.keys(value as object).filter((name) => !Object.hasOwn(schema.properties ?? {}, name));
  const problems: FieldProblem[] = unknownFields.map((field) => ({ field, problem: "is not a known field" }));
  const check = checkerFor(schema);
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
