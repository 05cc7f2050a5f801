import type { Static, TSchema } from "@sinclair/typebox";
import type { Principal } from "../access/principal.ts";
import type { Tier } from "../access/tiers.ts";
import type { Store } from "../db/client.ts";
import type { Writer } from "../events/log.ts";
import type { FactorVersion } from "../receipts/format.ts";
import type { ReceiptLog } from "../receipts/log/log.ts";
import type { ReferenceData, ReferenceView } from "../reference/storage/view.ts";
import { type AnswerDataView, withDataAsOf } from "./data-age.ts";

export interface SkillResult<Answer> {
  answer: Answer;
  factorVersions: FactorVersion[];
  modelVersion: string;
  /**
   * The data view the answer's figures come from, when it is not the call's own: audit-report
   * reports on the audited receipt's pinned view. Its `data_as_of` is derived from it (data-age.ts).
   */
  dataView?: AnswerDataView;
}

/** The running instance as a skill may read it: only skills that report on earlier answers (audit-report) need it. */
export interface SkillInstance {
  db: Store;
  reference: ReferenceData;
  /** Every skill this instance serves, so an audit can re-run the one a receipt names. */
  skills: readonly AnySkill[];
  /** The receipt log, so an audit can prove a receipt's inclusion. */
  log: ReceiptLog;
}

export interface SkillContext {
  /** Reference data as of the call (or as of the request's own `as_of`, when a skill supports one). */
  data: ReferenceView;
  caller: Principal;
  instance: SkillInstance;
  /**
   * Only for writing declarations (`write`): the answer's group-commit transaction, for the skill's own
   * tables, and the call's time. What the handler writes commits with the receipt, or not at all.
   */
  store?: { tx: Writer; now: number };
}

/**
 * One declaration per skill drives every transport: the REST route, /v1/agent/invoke/:skill,
 * the MCP tool, GET /v1/skills, the OpenAPI document, the scope list, the dashboard's scope
 * picker and /pricing. A declaration either reads (`handler`: no HTTP, no clock, no writes) or
 * writes its own tables (`write`), never both. A handler that answers from its input and the
 * reference data is synchronous (and replayable); one that reads stored records (audit-report)
 * returns a promise, which every transport awaits through the pipeline (docs/postgresql.md,
 * "Reading skills").
 */
interface DeclarationBase<Name extends string, I extends TSchema, O extends TSchema> {
  /** The skill's name, which is also the scope a key needs to call it. */
  name: Name;
  minimumTier: Tier;
  description: string;
  /**
   * Where the REST transport mounts it; GET and DELETE read their input from the query string, and
   * `:param` path segments are input fields too.
   */
  rest: { method: "GET" | "POST" | "PATCH" | "DELETE"; path: `/v1/${string}` };
  /** Set when this declaration is one operation of a skill with several (see OperationsSkill). */
  operation?: string;
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
}

/**
 * Reads, never writes, and answers from its input and the reference data alone, in memory: so
 * synchronously (what the answered path of rate-lookup runs), and an audit may re-run it.
 */
interface ReferenceReading<Name extends string, I extends TSchema, O extends TSchema>
  extends DeclarationBase<Name, I, O> {
  replayable: true;
  handler(input: Static<I>, context: SkillContext): SkillResult<Static<O>>;
  write?: never;
}

/**
 * Reads, never writes, and reads the instance's own records (the receipt ledger) through the
 * database: so it answers with a promise, and no audit re-runs it (the records grow).
 */
interface RecordReading<Name extends string, I extends TSchema, O extends TSchema> extends DeclarationBase<Name, I, O> {
  replayable: false;
  handler(input: Static<I>, context: SkillContext): Promise<SkillResult<Static<O>>>;
  write?: never;
}

export type ReadingDeclaration<Name extends string, I extends TSchema, O extends TSchema> =
  | ReferenceReading<Name, I, O>
  | RecordReading<Name, I, O>;

/**
 * Writes its own tables: awaited inside the answer's transaction, with `context.store`, so what it
 * writes commits with the receipt or not at all (storage calls are asynchronous on every engine;
 * docs/postgresql.md).
 */
interface WritingDeclaration<Name extends string, I extends TSchema, O extends TSchema>
  extends DeclarationBase<Name, I, O> {
  write(
    input: Static<I>,
    context: SkillContext & Required<Pick<SkillContext, "store">>,
  ): Promise<SkillResult<Static<O>>>;
  handler?: never;
}

export type SkillDeclaration<Name extends string = string, I extends TSchema = TSchema, O extends TSchema = TSchema> =
  | ReadingDeclaration<Name, I, O>
  | WritingDeclaration<Name, I, O>;

/** Omit that keeps a union's members apart (plain Omit keeps only the keys all members share). */
type OmitFromEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

// biome-ignore lint/suspicious/noExplicitAny: the registry holds skills of every input and output type
export type AnySkill = SkillDeclaration<string, any, any>;
// biome-ignore lint/suspicious/noExplicitAny: as AnySkill, for the declarations that only read (the reference data or records)
export type AnyReadingDeclaration = ReadingDeclaration<string, any, any>;
// biome-ignore lint/suspicious/noExplicitAny: as AnySkill, for the declarations that answer synchronously from the reference data
export type AnyReadingSkill = ReferenceReading<string, any, any>;

/** Declare a skill: its folder's one export, listed once in registry.ts. (A skill that writes has operations: defineOperationsSkill.) */
export function defineSkill<const Name extends string, I extends TSchema, O extends TSchema>(
  declaration: ReferenceReading<Name, I, O>,
): ReferenceReading<Name, I, O>;
/** A skill whose handler reads stored records and so answers with a promise. */
export function defineSkill<const Name extends string, I extends TSchema, O extends TSchema>(
  declaration: RecordReading<Name, I, O>,
): RecordReading<Name, I, O>;
export function defineSkill(declaration: AnyReadingDeclaration): AnyReadingDeclaration {
  return declaration;
}

/**
 * A skill with several operations (rate-alerts: create, list, get, update, delete, evaluate): one
 * name (its scope), one tier and one description; each operation has its own route, input, output
 * and handler, and shares the skill's gates, limits and receipts (docs/alerts-and-webhooks.md).
 */
export interface OperationsSkill<Name extends string = string> {
  name: Name;
  minimumTier: Tier;
  description: string;
  operations: readonly (OmitFromEach<AnySkill, "name" | "minimumTier"> & { operation: string })[];
}

/** What registry.ts lists: a single-operation skill or a skill with several. */
export type RegisteredSkill = AnySkill | OperationsSkill;

export function defineOperationsSkill<const Name extends string>(
  declaration: OperationsSkill<Name>,
): OperationsSkill<Name> {
  return declaration;
}

/**
 * What the transports serve: each skill, or each operation of a skill with several as a declaration
 * of its own; every answer carries `data_as_of` (data-age.ts).
 */
export function servedDeclarations(skills: readonly RegisteredSkill[]): AnySkill[] {
  return skills
    .flatMap((skill): AnySkill[] =>
      "operations" in skill
        ? skill.operations.map(
            (operation): AnySkill => ({ ...operation, name: skill.name, minimumTier: skill.minimumTier }),
          )
        : [skill],
    )
    .map(withDataAsOf);
}

/** The name transports call a declaration by: the skill's, or `skill.operation` for one of several operations. */
export const callName = (skill: Pick<AnySkill, "name" | "operation">): string =>
  skill.operation ? `${skill.name}.${skill.operation}` : skill.name;
