import { t } from "elysia";
import { DIESEL_REGION_NAMES } from "../../reference/regions.ts";
import { factorVersionSchema } from "../rate-lookup/schema.ts";
import { INDICATOR_IDS, MARKET_SIGNALS } from "./constants.ts";


export const marketAnalysisInput = t.Object({
  region: t.Optional(
    t.UnionEnum(DIESEL_REGION_NAMES, {
      default: "NATIONAL",
      description: "EIA diesel region for the diesel indicator: NATIONAL (default), PADD1..PADD5, PADD1A, PADD1B, PADD1C, CALIFORNIA, PADD5_EX_CA",
    }),
  ),
  as_of: t.Optional(
    t.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$", description: "YYYY-MM-DD: analyse with only the data observed on or before this date" }),
  ),
});

const indicator = t.Object({
  id: t.UnionEnum(INDICATOR_IDS),
  name: t.String(),
  series_id: t.String(),
  unit: t.String(),
  frequency: t.UnionEnum(["daily", "weekly", "monthly"]),
  latest: t.Object({ value: t.Number(), date: t.String() }),
  age_days: t.Integer({ description: "Days from the latest observation to as_of" }),
  fresh: t.Boolean({ description: "Recent enough to count in the signal" }),
  trend: t.Nullable(
    t.Object({
      lookback_months: t.Integer(),
      from_date: t.String(),
      from_value: t.Number(),
      change: t.Number({ description: "In the series' unit" }),
      change_percent: t.Nullable(t.Number()),
    }),
  ),
  z_score: t.Nullable(
    t.Object({
      value: t.Number(),
      mean: t.Number(),
      standard_deviation: t.Number(),
      observations: t.Integer(),
      window_start: t.String(),
    }),
  ),
  weight: t.Number(),
  rise_means: t.UnionEnum(["TIGHTENING", "LOOSENING"]),
  signal: t.Nullable(t.Number({ description: "Trend / full-signal move, clamped to [-1, 1], +1 = tightening" })),
  contribution: t.Nullable(t.Number({ description: "weight x signal, when the indicator counts" })),
  rationale: t.String(),
});

export const marketAnalysisOutput = t.Object({
  as_of: t.String(),
  region: t.UnionEnum(DIESEL_REGION_NAMES),
  signal: t.Object({
    value: t.UnionEnum(MARKET_SIGNALS),
    score: t.Nullable(t.Number({ description: "Weighted mean of the counted indicators' signals, -1..1" })),
    coverage: t.Number({ description: "Share of the indicators' total weight that counted" }),
    threshold: t.Number({ description: "The score beyond which the market is TIGHTENING (+) or LOOSENING (-)" }),
    reasons: t.Array(t.String()),
    method: t.String(),
  }),
  indicators: t.Array(indicator),
  diesel_fallback: t.Optional(t.String({ description: "Why a broader region's diesel stands in for the requested one" })),
  factor_versions: t.Array(factorVersionSchema),
  model_version: t.String(),
});
