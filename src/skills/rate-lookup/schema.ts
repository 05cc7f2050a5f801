import { t } from "elysia";
import { EQUIPMENT_TYPES, MODES } from "./constants.ts";

export const rateLookupInput = t.Object({
  origin: t.String({ minLength: 1, maxLength: 120, description: '"City, ST" (forgiving) or a 5-digit ZIP code', examples: ["Chicago, IL"] }),
  destination: t.String({ minLength: 1, maxLength: 120, description: "Same form as origin", examples: ["Dallas, TX"] }),
  equipment: t.UnionEnum(EQUIPMENT_TYPES, { description: `One of ${EQUIPMENT_TYPES.join(", ")}` }),
  mode: t.Optional(t.UnionEnum(MODES, { description: `One of ${MODES.join(", ")}; default FTL`, default: "FTL" })),
  miles: t.Optional(t.Number({ description: "Lane distance in miles; overrides the estimated road distance (0 < miles <= 5000)" })),
  include_fuel_surcharge: t.Optional(t.Boolean({ description: "Add the per-mile fuel surcharge; default false", default: false })),
  as_of: t.Optional(
    t.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$", description: "YYYY-MM-DD: answer with only the data observed on or before this date" }),
  ),
});

const place = t.Object({
  input: t.String(),
  city: t.String(),
  state: t.String(),
  lat: t.Number(),
  lon: t.Number(),
  padd: t.String({ description: 'EIA Petroleum Administration for Defense District ("1A".."5")' }),
  resolution: t.UnionEnum(["zip", "exact", "city_only", "fuzzy"]),
});

/** One FactorVersion (skills/types.ts) as it appears in an answer. */
export const factorVersionSchema = t.Object({ series_id: t.String(), value: t.Number(), observation_date: t.String(), import_id: t.String() });

const perMile = (description: string) => t.Number({ description: `${description}, USD per mile` });

export const rateLookupOutput = t.Object({
  type: t.Literal("COST_BASIS"),
  rate_per_mile: t.Number({ description: "Cost-basis rate, USD per mile" }),
  total_cost: t.Number({ description: "rate_per_mile x miles, USD" }),
  miles: t.Number(),
  distance_method: t.UnionEnum(["GREAT_CIRCLE_X_CIRCUITY", "CALLER_PROVIDED"]),
  equipment: t.UnionEnum(["DRY_VAN", "REEFER", "FLATBED"]),
  mode: t.UnionEnum(["FTL", "LTL", "INTERMODAL"]),
  as_of: t.String(),
  origin: place,
  destination: place,
  breakdown: t.Object(
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
  multipliers: t.Object({ mode: t.Number(), equipment: t.Number() }),
  confidence: t.Object({
    level: t.UnionEnum(["AMS_ANCHORED", "HIGH", "MEDIUM", "LOW"]),
    score: t.Number({ minimum: 0, maximum: 1 }),
    reasons: t.Array(t.String()),
  }),
  data_sources: t.Object({
    diesel_price: t.Number({ description: "USD per gallon" }),
    diesel_source: t.String(),
    labor_rate: t.Number({ description: "Driver hourly wage, USD per hour" }),
    labor_source: t.String(),
    equipment_source: t.String(),
  }),
  market_anchor: t.Optional(
    t.Object({
      source: t.String(),
      rate_per_mile: t.Number(),
      observation_date: t.String(),
      deviation: t.Number({ description: "(cost-basis rate - market rate) / market rate" }),
    }),
  ),
  factor_versions: t.Array(factorVersionSchema),
  model_version: t.String(),
});
