import { describe, expect, test } from "bun:test";
import type { TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { SKILLS } from "../../src/skills/registry.ts";
import { callName, servedDeclarations } from "../../src/skills/types.ts";
import { enumOf } from "../../src/skills/schema-kit.ts";
import { Type } from "@sinclair/typebox";

/**
 * What the published schemas (OpenAPI, MCP tools, /v1/skills) say must be what the validator does.
 * A default on a required field is a lie (the validator refuses the missing field), and a default
 * the schema itself would refuse is a bug.
 */
function schemaProblems(schema: TSchema, path = "", required = false): string[] {
  const problems: string[] = [];
  if ("default" in schema) {
    if (required) problems.push(`${path}: required, yet has a default`);
    if (!Value.Check(schema, schema.default))
      problems.push(`${path}: default ${JSON.stringify(schema.default)} is not a value the schema accepts`);
  }
  const requiredNames = new Set<string>((schema.required as string[] | undefined) ?? []);
  for (const [name, child] of Object.entries((schema.properties ?? {}) as Record<string, TSchema>)) {
    problems.push(...schemaProblems(child, `${path}.${name}`, requiredNames.has(name)));
  }
  if (schema.items) problems.push(...schemaProblems(schema.items as TSchema, `${path}[]`));
  for (const branch of (schema.anyOf ?? []) as TSchema[]) problems.push(...schemaProblems(branch, `${path}|`));
  return problems;
}

describe("every skill's input and output schema", () => {
  for (const skill of servedDeclarations(SKILLS)) {
    test(`${callName(skill)}: no required field has a default; every default is allowed by its schema`, () => {
      expect(schemaProblems(skill.input, "input")).toEqual([]);
      expect(schemaProblems(skill.output, "output")).toEqual([]);
    });
  }

  test("the walk finds both kinds of mistake", () => {
    const broken = Type.Object({
      equipment: enumOf(["DRY_VAN", "REEFER"], { default: "DRY_VAN" }),
      mode: Type.Optional(enumOf(["FTL", "LTL"], { default: "TRUCKLOAD" })),
      nested: Type.Array(Type.Object({ weeks: Type.Optional(Type.Integer({ minimum: 1, default: 0 })) })),
    });
    expect(schemaProblems(broken, "input")).toEqual([
      "input.equipment: required, yet has a default",
      'input.mode: default "TRUCKLOAD" is not a value the schema accepts',
      "input.nested[].weeks: default 0 is not a value the schema accepts",
    ]);
  });

  test("enumOf adds no default of its own", () => {
    expect(enumOf(["A", "B"])).not.toHaveProperty("default");
  });
});
