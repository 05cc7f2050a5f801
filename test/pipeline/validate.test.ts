import { describe, expect, test } from "bun:test";
import type { TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { Value } from "@sinclair/typebox/value";
import fc from "fast-check";
import { ApiError } from "../../src/errors.ts";
import { validateInput } from "../../src/pipeline/validate.ts";
import { SKILLS } from "../../src/skills/registry.ts";
import { callName, servedDeclarations } from "../../src/skills/types.ts";
import { rateLookupInput } from "../../src/skills/rate-lookup/schema.ts";

/** What validateInput did before it learnt each schema's defaults: a deep copy, then TypeBox's own Value.Default. */
function defaultedByTypeBox(schema: TSchema, raw: unknown): unknown {
  return Value.Default(schema, structuredClone(raw));
}

function sampleOf(property: TSchema): unknown {
  try {
    return Value.Create(property);
  } catch {
    return property.examples?.[0]; // TypeBox makes no sample of a pattern without a default
  }
}

const outcome = (run: () => unknown) => {
  try {
    return { value: run() };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { error: error.body("req_test") };
  }
};

const schemas = servedDeclarations(SKILLS).map((skill) => [callName(skill), skill.input as TSchema] as const);

describe("validateInput", () => {
  test.each(schemas)(
    "%s: the same defaults as TypeBox's Value.Default, and the same verdict, for any object",
    (_, schema) => {
      const names = Object.keys(schema.properties ?? {});
      const check = TypeCompiler.Compile(schema);
      // A valid input (TypeBox's own sample of each field, or the field's example), less some fields, with some values replaced and some fields added.
      const valid = Object.fromEntries(
        Object.entries(schema.properties as Record<string, TSchema>).map(([name, property]) => [
          name,
          sampleOf(property),
        ]),
      );
      const field = fc.oneof(
        fc.constantFrom(...names, "__proto__", "constructor", "extra"),
        fc.string({ maxLength: 6 }),
      );
      const input = fc
        .tuple(fc.subarray(Object.keys(valid)), fc.dictionary(field, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }))
        .map(([kept, changed]) => ({
          ...Object.fromEntries(kept.map((name) => [name, structuredClone(valid[name])])),
          ...changed,
        }));
      fc.assert(
        fc.property(input, (raw) => {
          const before = structuredClone(raw);
          const expected = defaultedByTypeBox(schema, raw);
          const got = outcome(() => validateInput(schema, raw, "body"));
          expect(raw).toEqual(before); // the caller's object is left as it was
          if ("value" in got) expect(got.value).toEqual(expected);
          else {
            const unknown = Object.keys(expected as object).some((name) => !names.includes(name));
            expect(unknown || !check.Check(expected)).toBe(true);
          }
        }),
        { numRuns: 300 },
      );
    },
  );

  test("a rate lookup without mode or fuel surcharge gets their defaults; unknown fields and bad values are named", () => {
    const raw = { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" };
    expect(validateInput(rateLookupInput, raw, "body")).toEqual({ ...raw, mode: "FTL", include_fuel_surcharge: false });
    expect(raw).toEqual({ origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" });
    const refused = outcome(() =>
      validateInput(rateLookupInput, { ...raw, equipment: "BOAT", __proto__x: 1, mode: "LTL" }, "body"),
    );
    expect(refused.error?.details).toEqual([
      { field: "__proto__x", problem: "is not a known field" },
      expect.objectContaining({ field: "equipment", problem: expect.stringMatching(/^must be one of /) }),
    ]);
  });
});
