import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { DIESEL_REGION_NAMES } from "../../reference/regions.ts";
import { factorVersionSchema } from "../rate-lookup/schema.ts";
import { DIESEL_TRENDS_MODEL, TREND_DIRECTIONS } from "./constants.ts";

const { windowWeeks } = DIESEL_TRENDS_MODEL;

export const dieselTrendsInput = t.Object({
  region: t.Optional(
    t.UnionEnum(DIESEL_REGION_NAMES, {
      default: "NATIONAL",
      description: "EIA diesel region: NATIONAL (default), PADD1..PADD5, PADD1A, PADD1B, PADD1C, CALIFORNIA, PADD5_EX_CA",
    }),
  ),
  // TypeBox's own Integer: Elysia's t.Integer also accepts numeric strings, which would get past
  // minimum/maximum because the pipeline converts query values with Value.Convert rather than Elysia's decoder.
  weeks: t.Optional(
    Type.Integer({
      minimum: windowWeeks.value.min,
      maximum: windowWeeks.value.max,
      default: windowWeeks.value.default,
      description: `Weeks of prices to return, ${windowWeeks.value.min}..${windowWeeks.value.max}; default ${windowWeeks.value.default}`,
    }),
  ),
  as_of: t.Optional(
    t.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}$", description: "YYYY-MM-DD: only prices published on or before this date" }),
  ),
});

const change = t.Object({
  weeks: t.Integer(),
  from_date: t.Nullable(t.String()),
  from_price: t.Nullable(t.Number()),
  absolute: t.Nullable(t.Number({ description: "USD/gal" })),
  percent: t.Nullable(t.Number()),
});

export const dieselTrendsOutput = t.Object({
  region: t.UnionEnum(DIESEL_REGION_NAMES),
  area_name: t.String(),
  series_id: t.String(),
  as_of: t.String(),
  weeks: t.Integer(),
  latest: t.Object({ date: t.String(), price: t.Number({ description: "USD/gal" }) }),
  series: t.Array(t.Object({ date: t.String(), price: t.Number() }), { description: "The window's weekly prices, oldest first" }),
  changes: t.Array(change, { description: "Latest against the EIA week on or before 1, 4, 13 and 52 weeks earlier; nulls before the series starts" }),
  moving_averages: t.Object({
    weeks_4: t.Nullable(t.Number({ description: "Mean of the last 4 weekly prices" })),
    weeks_13: t.Nullable(t.Number({ description: "Mean of the last 13 weekly prices" })),
  }),
  direction: t.Object({
    value: t.UnionEnum(TREND_DIRECTIONS),
    ma_spread_percent: t.Nullable(t.Number({ description: "(short MA - long MA) / long MA x 100" })),
    rule: t.String(),
  }),
  note: t.Optional(t.String({ description: "Set when the region's newest week is older than the U.S. average's" })),
  regions: t.Array(
    t.Object({
      region: t.UnionEnum(DIESEL_REGION_NAMES),
      area_name: t.String(),
      series_id: t.String(),
      latest_price: t.Number(),
      observation_date: t.String(),
      change_4_weeks: t.Nullable(t.Number()),
      change_4_weeks_percent: t.Nullable(t.Number()),
    }),
    { description: "Every region's newest price and 4-week change, side by side" },
  ),
  factor_versions: t.Array(factorVersionSchema),
  model_version: t.String(),
});
