import type { Static, TSchema } from "elysia";
import type { Principal } from "../access/principal.ts";
import type { Scope, Tier } from "../access/tiers.ts";
import type { Writer } from "../events/log.ts";
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
  /**
   * Only for declarations with `writes`: the answer's group-commit transaction, for the skill's own
   * tables, and the call's time. What the handler writes commits with the receipt, or not at all.
   */
  store?: { tx: Writer; now: number };
}

/**
 * One declaration per skill drives every transport: the REST route, /v1/agent/invoke/:skill,
 * the MCP tool, GET /v1/skills and the OpenAPI document.
 * Handlers are synchronous and pure in (input, context): no HTTP, no clock, no writes, except
 * that a declaration with `writes` may write its own tables through `context.store`.
 *
 * A skill with several operations (rate-alerts: create, list, get, update, delete, evaluate) is one
 * declaration per operation, all with the skill's name, scope and tier, each with its own
 * `operation`, route, input and handler (docs/alerts-and-webhooks.md, "One skill, several operations").
 */
export interface SkillDeclaration<I extends TSchema = TSchema, O extends TSchema = TSchema> {
  name: Scope;
  scope: Scope;
  minimumTier: Tier;
  description: string;
  /**
   * Where the REST transport mounts it; GET and DELETE read their input from the query string, and
   * `:param` path segments are input fields too.
   */
  rest: { method: "GET" | "POST" | "PATCH" | "DELETE"; path: `/v1/${string}` };
  /** Set when this declaration is one operation of a multi-operation skill. */
  operation?: string;
  /** The handler writes through `context.store`, inside the answer's transaction (never re-run by an audit). */
  writes?: true;
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

/** The name transports call a declaration by: the skill's, or `skill.operation` for one of several operations. */
export const callName = (skill: Pick<AnySkill, "name" | "operation">): string => (skill.operation ? `${skill.name}.${skill.operation}` : skill.name);
