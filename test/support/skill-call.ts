import type { Principal } from "../../src/access/principal.ts";
import { ApiError } from "../../src/errors.ts";
import type { ReferenceData, ReferenceView } from "../../src/reference/storage/view.ts";
import { SKILLS } from "../../src/skills/registry.ts";
import { servedDeclarations, type AnyReadingSkill, type SkillContext } from "../../src/skills/types.ts";
import { utcDateOf } from "../../src/dates.ts";
import { validateInput } from "../../src/pipeline/validate.ts";
import { LOADED_AT } from "../reference/helpers.ts";

/**
 * The context a handler runs in, for skills that read only their data view. Their handlers never
 * touch the instance's database, so none is given; audit-report tests go through the pipeline instead.
 */
export function skillContext(
  data: ReferenceData,
  view: ReferenceView,
  caller: Principal = {} as Principal,
): SkillContext {
  return {
    data: view,
    caller,
    instance: { db: undefined as never, reference: data, skills: servedDeclarations(SKILLS), log: undefined as never },
  };
}

/**
 * What the pipeline does between "authorized" and "answered", without HTTP: validate the raw input
 * against the declaration's schema (defaults, query coercion), pin the view to the skill's as_of
 * (or today), run the handler.
 */
export function callSkill(
  skill: AnyReadingSkill,
  data: ReferenceData,
  raw: unknown,
  options: { now?: number; source?: "body" | "query" } = {},
) {
  const now = options.now ?? LOADED_AT;
  const input = validateInput(skill.input, raw, options.source ?? (skill.rest.method === "GET" ? "query" : "body"));
  const asOf = skill.asOf?.(input) ?? utcDateOf(now);
  return skill.handler(input, skillContext(data, data.view(asOf, now)));
}

/** The ApiError a call is refused with; fails the test when the call is answered. */
export function refusalOf(call: () => unknown): ApiError {
  try {
    call();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected a refusal, got an answer");
}

export const detailsOf = (error: ApiError) =>
  error.body("req").details as { field: string; problem: string; allowed?: string[] }[];
