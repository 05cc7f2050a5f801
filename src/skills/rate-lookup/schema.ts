import { Type } from "@sinclair/typebox";
import { EQUIPMENT_TYPES } from "../kit.ts";
import { enumOf, factorVersionSchema, isoDate } from "../schema-kit.ts";
import { MODES } from "./constants.ts";

export const rateLookupInput = Type.Object({
  origin: Type.String({
    minLength: 1,
    maxLength: 120,
    description: '"City, ST" (forgiving) or a 5-digit ZIP code',
    examples: ["Chicago, IL"],
  }),
  destination: Type.String({
    minLength: 1,
    maxLength: 120,
    description: "Same form as origin",
    examples: ["Dallas, TX"],
  }),
  equipment: enumOf(EQUIPMENT_TYPES, { description: `One of ${EQUIPMENT_TYPES.join(", ")}` }),
  mode: Type.Optional(enumOf(MODES, { description: `One of ${MODES.join(", ")}; default FTL`, default: "FTL" })),
  miles: Type.Optional(
    Type.Number({
      description:
        "Lane distance in miles; overrides the road distance (at least 5 and 0.9x the straight line between the places, at most 5000)",
    }),
  ),
  include_fuel_surcharge: Type.Optional(
    Type.Boolean({ description: "Add the per-mile fuel surcharge; default false", default: false }),
  ),
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
  distance_method: enumOf(["ROAD_NETWORK", "ROAD_NETWORK_BOUNDED", "GREAT_CIRCLE_X_CIRCUITY", "CALLER_PROVIDED"], {
    description:
      "ROAD_NETWORK: shortest path on the road network plus local legs; ROAD_NETWORK_BOUNDED: the network's route goes round a road it lacks, " +
      "which is counted instead (distance.bound_reason); GREAT_CIRCLE_X_CIRCUITY: fallback when the network cannot serve the lane",
  }),
  distance: Type.Object({
    road_network: Type.String({ description: "Version of the road network asked for the miles" }),
    connector_miles: Type.Optional(
      Type.Object(
        { origin: Type.Number(), destination: Type.Number() },
        { description: "Local-road miles from each place to the network" },
      ),
    ),
    fallback_reason: Type.Optional(Type.String({ description: "Why the network's route was not used" })),
    bound_reason: Type.Optional(
      Type.String({
        description: "Where the network's route goes round a road it lacks, and what was counted instead",
      }),
    ),
  }),
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
      per_load: perMile("Per-load cost (per_load_cost.total) spread over the lane's miles"),
      lane_balance: perMile("What the lane-balance factor adds to (or, below 1, takes off) the parts above"),
      fuel_surcharge: perMile("Fuel surcharge above the base diesel price; never multiplied"),
    },
    {
      description:
        "Per-mile parts; all but the surcharge after the mode and equipment multipliers; they add up to rate_per_mile",
    },
  ),
  per_load_cost: Type.Object(
    {
      dwell: Type.Number({ description: "Loading and unloading time at two stops, USD" }),
      empty_miles: Type.Number({ description: "Empty miles driven to the pickup, USD" }),
      overhead: Type.Number({ description: "Dispatch, billing and booking, USD" }),
      total: Type.Number({ description: "USD per load, before multipliers" }),
    },
    { description: "The fixed cost of one load, whatever its length" },
  ),
  multipliers: Type.Object({ mode: Type.Number(), equipment: Type.Number() }),
  lane_balance: Type.Object(
    {
      origin_market: Type.Union([Type.String(), Type.Null()], {
        description: "Freight market the origin lies in, null when none is fitted",
      }),
      destination_market: Type.Union([Type.String(), Type.Null()], {
        description: "Freight market the destination lies in, null when none is fitted",
      }),
      outbound: Type.Number({ description: "Multiplier on loads leaving the origin's market" }),
      inbound: Type.Number({ description: "Multiplier on loads entering the destination's market" }),
      factor: Type.Number({
        description:
          "outbound x inbound, applied to the linehaul and per-load cost (never the surcharge); 1 for LTL and intermodal",
      }),
    },
    {
      description:
        "Head-haul / back-haul: markets that receive more freight than they ship cost more to enter and less to leave",
    },
  ),
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
    fuel_surcharge_source: Type.Optional(Type.String()),
  }),
  market_anchor: Type.Optional(
    Type.Object({
      source: Type.String(),
      district: Type.String({ description: "USDA AMS shipping district the origin lies in" }),
      destination: Type.String({ description: "USDA AMS destination city" }),
      observation_date: Type.String(),
      low_per_load: Type.Number({ description: "USD per load" }),
      high_per_load: Type.Number({ description: "USD per load" }),
      midpoint_per_load: Type.Number({ description: "USD per load" }),
      cost_basis_per_load: Type.Number({ description: "This answer's total_cost, USD" }),
      spread: Type.Number({ description: "(cost basis - market midpoint) / market midpoint" }),
      agrees: Type.Boolean({ description: "true when |spread| <= band: the answer is then AMS_ANCHORED" }),
      band: Type.Number(),
    }),
  ),
  factor_versions: Type.Array(factorVersionSchema),
  model_version: Type.String(),
});
