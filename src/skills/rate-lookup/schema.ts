import { t } from "elysia";
import { EQUIPMENT_TYPES, MODES } from "./constants.ts";

export const rateLookupInput = t.Object({
  origin: t.String({ minLength: 1, maxLength: 120, description: '"City, ST" (forgiving) or a 5-digit ZIP code', examples: ["Chicago, IL"] }),
  destination: t.String({ minLength: 1, maxLength: 120, description: "Same form as origin", examples: ["Dallas, TX"] }),
  equipment: t.UnionEnum(EQUIPMENT_TYPES, { description: `One of ${EQUIPMENT_TYPES.join(", ")}` }),
  mode: t.Optional(t.UnionEnum(MODES, { description: `One of ${MODES.join(", ")}; default FTL`, default: "FTL" })),
  miles: t.Optional(
    t.Number({ description: "Lane distance in miles; overrides the road distance (at least 5 and 0.9x the straight line between the places, at most 5000)" }),
  ),
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
  distance_method: t.UnionEnum(["ROAD_NETWORK", "GREAT_CIRCLE_X_CIRCUITY", "CALLER_PROVIDED"], {
    description: "ROAD_NETWORK: shortest path on the road network plus local legs; GREAT_CIRCLE_X_CIRCUITY: fallback when the network cannot serve the lane",
  }),
  distance: t.Object({
    road_network: t.String({ description: "Version of the road network asked for the miles" }),
    connector_miles: t.Optional(t.Object({ origin: t.Number(), destination: t.Number() }, { description: "Local-road miles from each place to the network" })),
    fallback_reason: t.Optional(t.String({ description: "Why the network's route was not used" })),
  }),
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
      per_load: perMile("Per-load cost (per_load_cost.total) spread over the lane's miles"),
      fuel_surcharge: perMile("Fuel surcharge above the base diesel price; never multiplied"),
    },
    { description: "Per-mile parts; all but the surcharge after the mode and equipment multipliers; they add up to rate_per_mile" },
  ),
  per_load_cost: t.Object(
    {
      dwell: t.Number({ description: "Loading and unloading time at two stops, USD" }),
      empty_miles: t.Number({ description: "Empty miles driven to the pickup, USD" }),
      overhead: t.Number({ description: "Dispatch, billing and booking, USD" }),
      total: t.Number({ description: "USD per load, before multipliers" }),
    },
    { description: "The fixed cost of one load, whatever its length" },
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
    fuel_surcharge_source: t.Optional(t.String()),
  }),
  market_anchor: t.Optional(
    t.Object({
      source: t.String(),
      district: t.String({ description: "USDA AMS shipping district the origin lies in" }),
      destination: t.String({ description: "USDA AMS destination city" }),
      observation_date: t.String(),
      low_per_load: t.Number({ description: "USD per load" }),
      high_per_load: t.Number({ description: "USD per load" }),
      midpoint_per_load: t.Number({ description: "USD per load" }),
      cost_basis_per_load: t.Number({ description: "This answer's total_cost, USD" }),
      spread: t.Number({ description: "(cost basis - market midpoint) / market midpoint" }),
      agrees: t.Boolean({ description: "true when |spread| <= band: the answer is then AMS_ANCHORED" }),
      band: t.Number(),
    }),
  ),
  factor_versions: t.Array(factorVersionSchema),
  model_version: t.String(),
});
