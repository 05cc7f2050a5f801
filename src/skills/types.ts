import type { Static, TSchema } from "elysia";
import type { Principal } from "../access/principal.ts";
import type { Scope, Tier } from "../access/tiers.ts";
import type { ReferenceView } from "../reference/view.ts";

/** A figure an answer used, precise enough to find the exact stored observation again. */
export interface FactorVersion {
  series_id: string;
  value: number;
  observation_date: string;
  import_id: string;
}

export interface SkillResult<Answer> {
  answer: Answer;
  factorVersions: FactorVersion[];
  modelVersion: string;
}

export interface SkillContext {
  /** Reference data as of the call (or as of the request's own `as_of`, when a skill supports one). */
  data: ReferenceView;
  caller: Principal;
}

/**
 * One declaration per skill drives every transport: the REST route, /v1/agent/invoke/:skill,
 * the MCP tool, GET /v1/skills and the OpenAPI document.
 * Handlers are synchronous and pure in (input, context): no HTTP, no clock, no writes.
 */
export interface SkillDeclaration<I extends TSchema = TSchema, O extends TSchema = TSchema> {
  name: Scope;
  scope: Scope;
  minimumTier: Tier;
  description: string;
  /** Where the REST transport mounts it; GET skills read their input from the query string. */
  rest: { method: "GET" | "POST"; path: `/v1/${string}` };
  input: I;
  output: O;
  /**
   * The date the skill's data view is pinned to, when the input carries one (rate-lookup's `as_of`).
   * Defaults to the call's date.
   */
  asOf?(input: Static<I>): string | undefined;
  handler(input: Static<I>, context: SkillContext): SkillResult<Static<O>>;
}

export type AnySkill = SkillDeclaration<TSchema, TSchema>;
