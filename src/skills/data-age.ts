/**
 * `data_as_of`: how old the figures behind an answer are, added to every skill's answer in this one
 * place (docs/api.md#data-age). Derived from the answer's factor versions, the observations the
 * handler read through its reference view and answered with, so it is part of the signed answer and
 * an audit's re-run derives it identically from the same view.
 */
import { type TObject, type TSchema, Type } from "@sinclair/typebox";
import { daysBetween } from "../dates.ts";
import type { FactorVersion } from "../receipts/format.ts";
import { isoDate, nullable } from "./schema-kit.ts";

export const DataAsOfSchema = Type.Object(
  {
    as_of: isoDate(
      "The day the answer's data view is for: the request's as_of, else the day of the call (audit-report: the audited receipt's).",
    ),
    latest_observation: nullable(isoDate("The newest figure the answer used; null when it used none.")),
    stalest_observation: nullable(
      isoDate("The oldest among the latest figures of the series the answer used; null when it used none."),
    ),
    max_age_days: nullable(
      Type.Integer({
        description: "Days from stalest_observation to as_of: how far behind the oldest series the answer used is.",
      }),
    ),
    series: Type.Array(
      Type.Object({
        series_id: Type.String(),
        latest_observation: isoDate("The newest observation of this series the answer used."),
        age_days: Type.Integer({ description: "Days from latest_observation to as_of." }),
      }),
      { description: "Each series the answer used, by series_id." },
    ),
  },
  {
    description:
      "How old the figures behind this answer are. Every skill answers from the newest figures its data view holds and says here how old they are; old figures lower a confidence or are labelled, they never make a call without as_of refuse.",
  },
);

export interface AnswerDataView {
  asOf: string;
  factorVersions: readonly FactorVersion[];
}

/** The data age of an answer over `view`: per series, the newest observation used and its age on `asOf`. */
export function dataAsOf({ asOf, factorVersions }: AnswerDataView) {
  const latest = new Map<string, string>();
  for (const factor of factorVersions) {
    const seen = latest.get(factor.series_id);
    if (!seen || factor.observation_date > seen) latest.set(factor.series_id, factor.observation_date);
  }
  const series = [...latest]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([series_id, latest_observation]) => ({
      series_id,
      latest_observation,
      age_days: daysBetween(latest_observation, asOf),
    }));
  const dates = series.map((s) => s.latest_observation).sort();
  const stalest = dates[0] ?? null;
  return {
    as_of: asOf,
    latest_observation: dates.at(-1) ?? null,
    stalest_observation: stalest,
    max_age_days: stalest === null ? null : daysBetween(stalest, asOf),
    series,
  };
}

/** An output schema with `data_as_of` required on every object form of it (a union's members too). */
function withDataAsOfField(schema: TSchema): TSchema {
  const members = (schema as { anyOf?: TSchema[] }).anyOf;
  if (members) return { ...schema, anyOf: members.map(withDataAsOfField) };
  const object = schema as TObject;
  return {
    ...object,
    properties: { ...object.properties, data_as_of: DataAsOfSchema },
    required: [...(object.required ?? []), "data_as_of"],
  };
}

type DeclaredResult = { answer: unknown; factorVersions: FactorVersion[]; dataView?: AnswerDataView };

type Context = { data: { asOf: string } };

/**
 * A reading declaration answers through `handler`: at once from the reference data (replayable), or
 * with a promise when it reads records; a writing one through `write` (types.ts).
 */
type Declaration =
  | { output: TSchema; replayable: true; handler(input: never, context: Context): DeclaredResult; write?: never }
  | {
      output: TSchema;
      replayable: false;
      handler(input: never, context: Context): Promise<DeclaredResult>;
      write?: never;
    }
  | { output: TSchema; write(input: never, context: Context): Promise<DeclaredResult>; handler?: never };

function withAge<R extends DeclaredResult>(result: R, context: Context): R {
  const view = result.dataView ?? { asOf: context.data.asOf, factorVersions: result.factorVersions };
  return { ...result, answer: { ...(result.answer as Record<string, unknown>), data_as_of: dataAsOf(view) } };
}

/**
 * The declaration as it is served: its output schema declares `data_as_of`, and its handler's answer
 * carries it, over the answer's own data view (`dataView`) when the result names one, else over the
 * call's view and the answer's factor versions.
 */
export function withDataAsOf<D extends Declaration>(declaration: D): D {
  const output = withDataAsOfField(declaration.output);
  if (declaration.write) {
    const { write } = declaration;
    return {
      ...declaration,
      output,
      write: async (input: never, context: Context) => withAge(await write(input, context), context),
    };
  }
  if (declaration.replayable) {
    const { handler } = declaration;
    return {
      ...declaration,
      output,
      handler: (input: never, context: Context) => withAge(handler(input, context), context),
    };
  }
  const { handler } = declaration;
  return {
    ...declaration,
    output,
    handler: async (input: never, context: Context) => withAge(await handler(input, context), context),
  };
}
