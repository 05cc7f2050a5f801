import { Type } from "@sinclair/typebox";
import { DIESEL_REGION_NAMES } from "../../reference/geo/regions.ts";
import { enumOf, factorVersionSchema, isoDate, nullable } from "../schema-kit.ts";
import { INDICATOR_IDS, MARKET_SIGNALS } from "./constants.ts";

export const marketAnalysisInput = Type.Object({
  region: Type.Optional(
    enumOf(DIESEL_REGION_NAMES, {
      default: "NATIONAL",
      description:
        "EIA diesel region for the diesel indicator: NATIONAL (default), PADD1..PADD5, PADD1A, PADD1B, PADD1C, CALIFORNIA, PADD5_EX_CA",
    }),
  ),
  as_of: Type.Optional(isoDate("YYYY-MM-DD: analyse with only the data observed on or before this date")),
});

const indicator = Type.Object({
  id: enumOf(INDICATOR_IDS),
  name: Type.String(),
  series_id: Type.String(),
  unit: Type.String(),
  frequency: enumOf(["daily", "weekly", "monthly"]),
  latest: Type.Object({ value: Type.Number(), date: Type.String() }),
  age_days: Type.Integer({ description: "Days from the latest observation to as_of" }),
  fresh: Type.Boolean({ description: "Recent enough to count in the signal" }),
  trend: nullable(
    Type.Object({
      lookback_months: Type.Integer(),
      from_date: Type.String(),
      from_value: Type.Number(),
      change: Type.Number({ description: "In the series' unit" }),
      change_percent: nullable(Type.Number()),
    }),
  ),
  z_score: nullable(
    Type.Object({
      value: Type.Number(),
      mean: Type.Number(),
      standard_deviation: Type.Number(),
      observations: Type.Integer(),
      window_start: Type.String(),
    }),
  ),
  weight: Type.Number(),
  rise_means: enumOf(["TIGHTENING", "LOOSENING"]),
  signal: nullable(Type.Number({ description: "Trend / full-signal move, clamped to [-1, 1], +1 = tightening" })),
  contribution: nullable(Type.Number({ description: "weight x signal, when the indicator counts" })),
  rationale: Type.String(),
});

export const marketAnalysisOutput = Type.Object({
  as_of: Type.String(),
  signal_as_of: Type.Optional(
    Type.String({
      description:
        "Without an as_of and with too little fresh today: the month-end the signal was read as of (newest with enough fresh indicators)",
    }),
  ),
  region: enumOf(DIESEL_REGION_NAMES),
  signal: Type.Object({
    value: enumOf(MARKET_SIGNALS),
    score: nullable(Type.Number({ description: "Weighted mean of the counted indicators' signals, -1..1" })),
    coverage: Type.Number({ description: "Share of the indicators' total weight that counted" }),
    threshold: Type.Number({ description: "The score beyond which the market is TIGHTENING (+) or LOOSENING (-)" }),
    reasons: Type.Array(Type.String()),
    method: Type.String(),
  }),
  indicators: Type.Array(indicator),
  diesel_fallback: Type.Optional(
    Type.String({ description: "Why a broader region's diesel stands in for the requested one" }),
  ),
  factor_versions: Type.Array(factorVersionSchema),
  model_version: Type.String(),
});
