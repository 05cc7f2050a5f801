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
    Type.Boolean({
      description: "Show the per-mile fuel surcharge split out of the fuel line (the total is the same); default false",
      default: false,
    }),
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
      fuel: perMile("Tractor diesel for every mile driven, loaded and empty, less the fuel_surcharge split out of it"),
      reefer_fuel: perMile("Refrigeration unit diesel, running loaded and at the stops"),
      labor: perMile("Driver wages and benefits for the loaded miles' hours"),
      equipment: perMile(
        "Truck and trailer payments and insurance by the hour, repair, tires and tolls by the mile, loaded",
      ),
      stops: perMile("Driver and equipment time at the two stops (load.stop_hours)"),
      empty_miles: perMile(
        "Driver and equipment time and wear on the empty miles (load.empty_miles); their diesel is in fuel",
      ),
      margin: perMile("Carrier margin, never multiplied"),
      lane_balance: perMile(
        "What the lane-balance factor adds to (or, below 1, takes off) the non-fuel lines and margin",
      ),
      fuel_surcharge: perMile(
        "With include_fuel_surcharge: the tariff's surcharge, split out of the fuel line (the total does not move)",
      ),
    },
    {
      description:
        "Per-mile parts; labor, equipment, stops and empty_miles after the mode and equipment multipliers; they add up to rate_per_mile",
    },
  ),
  load: Type.Object(
    {
      empty_miles: Type.Number({ description: "Miles driven empty to reach the load" }),
      driven_miles: Type.Number({ description: "Loaded and empty miles" }),
      running_hours: Type.Number({ description: "On-duty hours driving the loaded and empty miles" }),
      stop_hours: Type.Number({ description: "Hours at the two stops" }),
      cost_per_hour: Type.Number({
        description: "Driver and equipment time, USD per on-duty hour, after the multipliers",
      }),
      cost_per_driven_mile: Type.Number({ description: "Diesel and equipment wear, USD per mile driven" }),
    },
    { description: "What the load takes in hours and miles, and what each costs: the breakdown is priced from these" },
  ),
  multipliers: Type.Object({ mode: Type.Number(), equipment: Type.Number() }),
  lane_balance: Type.Object(
    {
      origin_district: Type.Union([Type.String(), Type.Null()], {
        description: "USDA AMS produce shipping district the origin lies in (the nearest), null when none",
      }),
      origin_market: Type.Union([Type.String(), Type.Null()], {
        description: "Freight market the origin lies in, null when none is fitted",
      }),
      destination_market: Type.Union([Type.String(), Type.Null()], {
        description: "Freight market the destination lies in, null when none is fitted",
      }),
      level: Type.Number({
        description: "Head-haul level: what a reefer load out of a shipping district pays over the cost basis",
      }),
      outbound: Type.Number({ description: "Multiplier on loads leaving the origin's shipping district" }),
      inbound: Type.Number({ description: "Multiplier on loads entering the destination's market" }),
      factor: Type.Number({
        description:
          "level x outbound x inbound, applied to the non-fuel lines and margin of a REEFER truckload from a USDA AMS shipping district; 1 for any other lane (no public evidence of direction)",
      }),
    },
    {
      description:
        "Head-haul / back-haul, fitted on USDA AMS reefer produce lanes: a reefer load out of a produce shipping district is a head haul, priced by its district and the market it enters",
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
