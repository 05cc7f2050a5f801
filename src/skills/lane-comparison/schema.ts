import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { EQUIPMENT_TYPES } from "../rate-lookup/constants.ts";
import { factorVersionSchema, rateLookupInput, rateLookupOutput } from "../rate-lookup/schema.ts";
import { LANE_COMPARISON_MODEL, SORT_METRICS } from "./constants.ts";

const lookupField = rateLookupInput.properties;
const { min, max } = LANE_COMPARISON_MODEL.laneCount.value;

const lane = t.Object(
  {
    origin: lookupField.origin,
    destination: lookupField.destination,
    // Plain literals: an enum with a default (as t.UnionEnum builds) would quietly fill in a lane's missing equipment.
    equipment: Type.Union(
      EQUIPMENT_TYPES.map((equipment) => Type.Literal(equipment)),
      { description: `One of ${EQUIPMENT_TYPES.join(", ")}` },
    ),
    mode: lookupField.mode,
    miles: lookupField.miles,
    label: t.Optional(t.String({ minLength: 1, maxLength: 80, description: "Your name for the lane, echoed in the answer" })),
  },
  { additionalProperties: false },
);

export const laneComparisonInput = t.Object({
  lanes: t.Array(lane, { minItems: min, maxItems: max, description: `${min} to ${max} lanes; the same lane may appear more than once` }),
  include_fuel_surcharge: lookupField.include_fuel_surcharge,
  sort_by: t.Optional(
    t.UnionEnum(SORT_METRICS, { default: "rate_per_mile", description: "Rank on rate_per_mile (default) or total_cost" }),
  ),
  as_of: lookupField.as_of,
});

const lookupAnswer = rateLookupOutput.properties;
const delta = (against: string) =>
  t.Object(
    {
      absolute: t.Number({ description: `This lane's figure minus ${against} (USD per mile or USD, as sort_by)` }),
      percent: t.Number({ description: `The same, in percent of ${against}` }),
    },
    { description: `Against ${against}, on the sort_by figure` },
  );
const place = t.Object({ input: t.String(), city: t.String(), state: t.String() });
const extreme = t.Object({ position: t.Integer(), label: t.Optional(t.String()), value: t.Number() });

export const laneComparisonOutput = t.Object({
  as_of: t.String(),
  sort_by: t.UnionEnum(SORT_METRICS),
  include_fuel_surcharge: t.Boolean(),
  lanes: t.Array(
    t.Object({
      rank: t.Integer({ minimum: 1, description: "1 is the cheapest; equal figures share a rank" }),
      position: t.Integer({ minimum: 0, description: "Where the lane stood in the request (lanes.<position>)" }),
      label: t.Optional(t.String()),
      origin: place,
      destination: place,
      equipment: lookupAnswer.equipment,
      mode: lookupAnswer.mode,
      miles: lookupAnswer.miles,
      distance_method: lookupAnswer.distance_method,
      rate_per_mile: lookupAnswer.rate_per_mile,
      total_cost: lookupAnswer.total_cost,
      confidence: t.Object({ level: lookupAnswer.confidence.properties.level, score: lookupAnswer.confidence.properties.score }),
      delta_vs_cheapest: delta("the cheapest lane"),
      delta_vs_mean: delta("the mean of all lanes"),
    }),
    { description: "Cheapest first; each lane priced exactly as rate-lookup prices it" },
  ),
  summary: t.Object({
    cheapest: extreme,
    most_expensive: extreme,
    mean: t.Number({ description: "Mean sort_by figure over the lanes" }),
  }),
  factor_versions: t.Array(factorVersionSchema, { description: "Every lane's factors, each observation once" }),
  model_version: t.String(),
});
