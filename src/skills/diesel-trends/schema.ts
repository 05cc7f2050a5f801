import { Type } from "@sinclair/typebox";
import { DIESEL_REGION_NAMES } from "../../reference/geo/regions.ts";
import { enumOf, factorVersionSchema, isoDate, nullable } from "../schema-kit.ts";
import { DIESEL_TRENDS_MODEL, TREND_DIRECTIONS } from "./constants.ts";

const { windowWeeks } = DIESEL_TRENDS_MODEL;

export const dieselTrendsInput = Type.Object({
  region: Type.Optional(
    enumOf(DIESEL_REGION_NAMES, {
      default: "NATIONAL",
      description:
        "EIA diesel region: NATIONAL (default), PADD1..PADD5, PADD1A, PADD1B, PADD1C, CALIFORNIA, PADD5_EX_CA",
    }),
  ),
  weeks: Type.Optional(
    Type.Integer({
      minimum: windowWeeks.value.min,
      maximum: windowWeeks.value.max,
      default: windowWeeks.value.default,
      description: `Weeks of prices to return, ${windowWeeks.value.min}..${windowWeeks.value.max}; default ${windowWeeks.value.default}`,
    }),
  ),
  as_of: Type.Optional(isoDate("YYYY-MM-DD: only prices published on or before this date")),
});

const change = Type.Object({
  weeks: Type.Integer(),
  from_date: nullable(Type.String()),
  from_price: nullable(Type.Number()),
  absolute: nullable(Type.Number({ description: "USD/gal" })),
  percent: nullable(Type.Number()),
});

export const dieselTrendsOutput = Type.Object({
  region: enumOf(DIESEL_REGION_NAMES),
  area_name: Type.String(),
  series_id: Type.String(),
  as_of: Type.String(),
  weeks: Type.Integer(),
  latest: Type.Object({ date: Type.String(), price: Type.Number({ description: "USD/gal" }) }),
  series: Type.Array(Type.Object({ date: Type.String(), price: Type.Number() }), {
    description: "The window's weekly prices, oldest first",
  }),
  changes: Type.Array(change, {
    description:
      "Latest against the EIA week on or before 1, 4, 13 and 52 weeks earlier; nulls before the series starts",
  }),
  moving_averages: Type.Object({
    weeks_4: nullable(Type.Number({ description: "Mean of the last 4 weekly prices" })),
    weeks_13: nullable(Type.Number({ description: "Mean of the last 13 weekly prices" })),
  }),
  direction: Type.Object({
    value: enumOf(TREND_DIRECTIONS),
    ma_spread_percent: nullable(Type.Number({ description: "(short MA - long MA) / long MA x 100" })),
    rule: Type.String(),
  }),
  note: Type.Optional(
    Type.String({ description: "Set when the region's newest week is older than the U.S. average's" }),
  ),
  regions: Type.Array(
    Type.Object({
      region: enumOf(DIESEL_REGION_NAMES),
      area_name: Type.String(),
      series_id: Type.String(),
      latest_price: Type.Number(),
      observation_date: Type.String(),
      change_4_weeks: nullable(Type.Number()),
      change_4_weeks_percent: nullable(Type.Number()),
    }),
    { description: "Every region's newest price and 4-week change, side by side" },
  ),
  factor_versions: Type.Array(factorVersionSchema),
  model_version: Type.String(),
});
