import { Type } from "@sinclair/typebox";
import { EQUIPMENT_TYPES } from "../kit.ts";
import { enumOf, factorVersionSchema, isoDate } from "../schema-kit.ts";
import { MODES } from "./constants.ts";

export const rateLookupInput = Type.Object({
  origin: Type.String({ minLength: 1, maxLength: 120, description: '"City, ST" (forgiving) or a 5-digit ZIP code', examples: ["Chicago, IL"] }),
  destination: Type.String({ minLength: 1, maxLength: 120, description: "Same form as origin", examples: ["Dallas, TX"] }),
  equipment: enumOf(EQUIPMENT_TYPES, { description: `One of ${EQUIPMENT_TYPES.join(", ")}` }),
  mode: Type.Optional(enumOf(MODES, { description: `One of ${MODES.join(", ")}; default FTL`, default: "FTL" })),
  miles: Type.Optional(Type.Number({ description: "Lane distance in miles; overrides the estimated road distance (0 < miles <= 5000)" })),
  include_fuel_surcharge: Type.Optional(Type.Boolean({ description: "Add the per-mile fuel surcharge; default false", default: false })),
  as_of: Type.Optional(isoDate("YYYY-MM-DD: answer with only the data observed on or before this date")),
});

const place = Type.Object({
  input: Type.String(),
  city: Type.String(),
  state: Type.String(),
  lat: Type.Number(),
  lon: Type.Number(),
  padd: Type.String({ description: 'EIA Petroleum Administration for Defense District ("1A".."5")' }),
  resolution: enumOf(["zip", "exact", "city_only", "fuzzy"]),
});

const perMile = (description: string) => Type.Number({ description: `${description}, USD per mile` });

export const rateLookupOutput = Type.Object({
  type: Type.Literal("COST_BASIS"),
  rate_per_mile: Type.Number({ description: "Cost-basis rate, USD per mile" }),
  total_cost: Type.Number({ description: "rate_per_mile x miles, USD" }),
  miles: Type.Number(),
  distance_method: enumOf(["GREAT_CIRCLE_X_CIRCUITY", "CALLER_PROVIDED"]),
  equipment: enumOf(EQUIPMENT_TYPES),
  mode: enumOf(MODES),
  as_of: Type.String(),
  origin: place,
  destination: place,
  breakdown: Type.Object(
    {
      fuel: perMile("Tractor diesel"),
      reefer_fuel: perMile("Refrigeration unit diesel"),
      labor: perMile("Driver wages and benefits"),
      equipment: perMile("Truck, trailer, maintenance, insurance, tires, tolls, permits"),
      margin: perMile("Carrier margin"),
      fuel_surcharge: perMile("Fuel surcharge"),
    },
    { description: "Per-mile parts after the mode and equipment multipliers; they add up to rate_per_mile" },
  ),
  multipliers: Type.Object({ mode: Type.Number(), equipment: Type.Number() }),
  confidence: Type.Object({
    level: enumOf(["AMS_ANCHORED", "HIGH", "MEDIUM", "LOW"]),
    score: Type.Number({ minimum: 0, maximum: 1 }),
    reasons: Type.Array(Type.String()),
  }),
  data_sources: Type.Object({
    diesel_price: Type.Number({ description: "USD per gallon" }),
    diesel_source: Type.String(),
    labor_rate: Type.Number({ description: "Driver hourly wage, USD per hour" }),
    labor_source: Type.String(),
    equipment_source: Type.String(),
  }),
  market_anchor: Type.Optional(
    Type.Object({
      source: Type.String(),
      rate_per_mile: Type.Number(),
      observation_date: Type.String(),
      deviation: Type.Number({ description: "(cost-basis rate - market rate) / market rate" }),
    }),
  ),
  factor_versions: Type.Array(factorVersionSchema),
  model_version: Type.String(),
});
