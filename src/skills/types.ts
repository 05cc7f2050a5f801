import type { Static, TSchema } from "@sinclair/typebox";
import type { Principal } from "../access/principal.ts";
import type { Tier } from "../access/tiers.ts";
import type { Db } from "../db/client.ts";
import type { FactorVersion } from "../receipts/format.ts";
import type { ReferenceData, ReferenceView } from "../reference/view.ts";

export interface SkillResult<Answer> {
  answer: Answer;
  factorVersions: FactorVersion[];
  modelVersion: string;
}

/** The running instance as a skill may read it: only skills that report on earlier answers (audit-report) need it. */
export interface SkillInstance {
  db: Db;
  reference: ReferenceData;
  /** Every skill this instance serves, so an audit can re-run the one a receipt names. */
  skills: readonly AnySkill[];
}

export interface SkillContext {
  /** Reference data as of the call (or as of the request's own `as_of`, when a skill supports one). */
  data: ReferenceView;
  caller: Principal;
  instance: SkillInstance;
}

/**
 * One declaration per skill drives every transport: the REST route, /v1/agent/invoke/:skill,
 * the MCP tool, GET /v1/skills, the OpenAPI document, the scope list, the dashboard's scope
 * picker and /pricing. Handlers are synchronous: no HTTP, no clock, no writes.
 */
export interface SkillDeclaration<Name extends string = string, I extends TSchema = TSchema, O extends TSchema = TSchema> {
  /** The skill's name, which is also the scope a key needs to call it. */
  name: Name;
  minimumTier: Tier;
  description: string;
  /** Where the REST transport mounts it; GET skills read their input from the query string. */
  rest: { method: "GET" | "POST"; path: `/v1/${string}` };
  input: I;
  output: O;
  /**
   * May an audit re-run it on a receipt's recorded input and data view? True when the answer
   * depends only on the input and the reference data; false when it reads the live ledger.
   */
  replayable: boolean;
  /**
   * The date the skill's data view is pinned to, when the input carries one (rate-lookup's `as_of`).
   * Defaults to the call's date.
   */
  asOf?(input: Static<I>): string | undefined;
  handler(input: Static<I>, context: SkillContext): SkillResult<Static<O>>;
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds skills of every input and output type
export type AnySkill = SkillDeclaration<string, any, any>;

/** Declare a skill: its folder's one export, listed once in registry.ts. */
export function defineSkill<const Name extends string, I extends TSchema, O extends TSchema>(declaration: SkillDeclaration<Name, I, O>): SkillDeclaration<Name, I, O> {
  return declaration;
}
