import type { Principal } from "../../../src/access/principal.ts";
import { ApiError } from "../../../src/errors.ts";
import type { ReferenceData } from "../../../src/reference/view.ts";
import type { AnySkill } from "../../../src/skills/types.ts";
import { validateInput } from "../../../src/skills/validate.ts";
import { LOADED_AT } from "../../reference/helpers.ts";

/**
 * What the pipeline does between "authorized" and "answered", without HTTP: validate the raw input
 * against the declaration's schema (defaults, query coercion), pin the view to the skill's as_of
 * (or today), run the handler. Shared by the fuel-surcharge, diesel-trends and market-analysis tests.
 */
export function callSkill(skill: AnySkill, data: ReferenceData, raw: unknown, options: { now?: number; source?: "body" | "query" } = {}) {
  const now = options.now ?? LOADED_AT;
  const input = validateInput(skill.input, raw, options.source ?? (skill.rest.method === "GET" ? "query" : "body"));
  const asOf = skill.asOf?.(input) ?? new Date(now).toISOString().slice(0, 10);
  return skill.handler(input, { data: data.view(asOf, now), caller: {} as Principal });
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

export const detailsOf = (error: ApiError) => error.body("req").details as { field: string; problem: string; allowed?: string[] }[];
