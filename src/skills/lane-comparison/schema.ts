import { Type } from "@sinclair/typebox";
import { rateLookupInput, rateLookupOutput } from "../rate-lookup/index.ts";
import { enumOf, factorVersionSchema } from "../schema-kit.ts";
import { LANE_COMPARISON_MODEL, SORT_METRICS } from "./constants.ts";

const lookupField = rateLookupInput.properties;
const { min, max } = LANE_COMPARISON_MODEL.laneCount.value;

const lane = Type.Object(
  {
    origin: lookupField.origin,
    destination: lookupField.destination,
    equipment: lookupField.equipment,
    mode: lookupField.mode,
    miles: lookupField.miles,
    label: Type.Optional(
      Type.String({ minLength: 1, maxLength: 80, description: "Your name for the lane, echoed in the answer" }),
    ),
  },
  { additionalProperties: false },
);

export const laneComparisonInput = Type.Object({
  lanes: Type.Array(lane, {
    minItems: min,
    maxItems: max,
    description: `${min} to ${max} lanes; the same lane may appear more than once`,
  }),
  include_fuel_surcharge: lookupField.include_fuel_surcharge,
  sort_by: Type.Optional(
    enumOf(SORT_METRICS, { default: "rate_per_mile", description: "Rank on rate_per_mile (default) or total_cost" }),
  ),
  as_of: lookupField.as_of,
});

const lookupAnswer = rateLookupOutput.properties;
const delta = (against: string) =>
  Type.Object(
    {
      absolute: Type.Number({ description: `This lane's figure minus ${against} (USD per mile or USD, as sort_by)` }),
      percent: Type.Number({ description: `The same, in percent of ${against}` }),
    },
    { description: `Against ${against}, on the sort_by figure` },
  );
const place = Type.Object({ input: Type.String(), city: Type.String(), state: Type.String() });
const extreme = Type.Object({ position: Type.Integer(), label: Type.Optional(Type.String()), value: Type.Number() });

export const laneComparisonOutput = Type.Object({
  as_of: Type.String(),
  sort_by: enumOf(SORT_METRICS),
  include_fuel_surcharge: Type.Boolean(),
  lanes: Type.Array(
    Type.Object({
      rank: Type.Integer({ minimum: 1, description: "1 is the cheapest; equal figures share a rank" }),
      position: Type.Integer({ minimum: 0, description: "Where the lane stood in the request (lanes.<position>)" }),
      label: Type.Optional(Type.String()),
      origin: place,
      destination: place,
      equipment: lookupAnswer.equipment,
      mode: lookupAnswer.mode,
      miles: lookupAnswer.miles,
      distance_method: lookupAnswer.distance_method,
      rate_per_mile: lookupAnswer.rate_per_mile,
      total_cost: lookupAnswer.total_cost,
      confidence: Type.Object({
        level: lookupAnswer.confidence.properties.level,
        score: lookupAnswer.confidence.properties.score,
      }),
      delta_vs_cheapest: delta("the cheapest lane"),
      delta_vs_mean: delta("the mean of all lanes"),
    }),
    { description: "Cheapest first; each lane priced exactly as rate-lookup prices it" },
  ),
  summary: Type.Object({
    cheapest: extreme,
    most_expensive: extreme,
    mean: Type.Number({ description: "Mean sort_by figure over the lanes" }),
  }),
  factor_versions: Type.Array(factorVersionSchema, { description: "Every lane's factors, each observation once" }),
  model_version: Type.String(),
});
