import { Type } from "@sinclair/typebox";
import { errors } from "../errors.ts";
import { callName, type AnySkill, type AnyReadingDeclaration } from "./types.ts";

/**
 * The MCP tool name of a declaration. MCP clients accept only `[a-zA-Z0-9_-]{1,64}`, so an operation
 * of a skill with several joins with `_` (`rate-alerts_create`); a skill's own name needs no change.
 */
export const toolName = (skill: Pick<AnySkill, "name" | "operation">): string =>
  skill.operation ? `${skill.name}_${skill.operation}` : skill.name;

const titleCase = (words: string) =>
  words
    .split("-")
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");

/** A human title for a tool: "Rate Lookup", "Rate Alerts: Create". */
export const toolTitle = (skill: Pick<AnySkill, "name" | "operation">): string =>
  skill.operation ? `${titleCase(skill.name)}: ${titleCase(skill.operation)}` : titleCase(skill.name);

/**
 * A skill with several operations called without one (`rate-alerts`, `rate-alerts.nope`): gated like
 * any of its operations (key, scope, tier, limits), so a caller without the skill gets its 403; a
 * caller with it gets a 404 naming the operations to call instead (docs/alerts-and-webhooks.md).
 */
function operationChooser(operations: readonly AnySkill[], requested: string): AnyReadingDeclaration {
  const [first] = operations;
  if (!first) throw new Error("a skill with operations has at least one");
  const names = operations.map(callName);
  return {
    name: first.name,
    minimumTier: first.minimumTier,
    description: `Choose one of: ${names.join(", ")}.`,
    rest: first.rest,
    input: Type.Object({}),
    output: Type.Object({}),
    replayable: false,
    async handler() {
      throw errors.operationRequired(first.name, requested, names);
    },
  };
}

/** What a name reached: a declaration, or the chooser of a skill with several operations (which reads no input). */
export interface ResolvedCall {
  skill: AnySkill;
  chooser: boolean;
}

/**
 * What a call name reaches on invoke and MCP: a declaration by its call name (`rate-alerts.create`)
 * or its tool name (`rate-alerts_create`); for a skill with several operations, its bare name or an
 * unknown operation of it reaches the chooser above. Anything else is undefined (404).
 */
export function callResolver(skills: readonly AnySkill[]): (name: string) => ResolvedCall | undefined {
  const exact = new Map<string, ResolvedCall>();
  for (const skill of skills) {
    exact.set(toolName(skill), { skill, chooser: false });
    exact.set(callName(skill), { skill, chooser: false });
  }
  const families = Map.groupBy(
    skills.filter((skill) => skill.operation !== undefined),
    (skill) => skill.name,
  );
  return (name) => {
    const found = exact.get(name);
    if (found) return found;
    for (const [family, operations] of families) {
      if (name === family || name.startsWith(`${family}.`) || name.startsWith(`${family}_`))
        return { skill: operationChooser(operations, name), chooser: true };
    }
    return undefined;
  };
}
