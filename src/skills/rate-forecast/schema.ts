import { Type } from "@sinclair/typebox";
import { t } from "elysia";
import { factorVersionSchema, rateLookupInput, rateLookupOutput } from "../rate-lookup/schema.ts";
import { RATE_FORECAST_MODEL } from "./constants.ts";

const lookupField = rateLookupInput.properties;
const { horizonWeeks } = RATE_FORECAST_MODEL;

export const rateForecastInput = t.Object({
  origin: lookupField.origin,
  destination: lookupField.destination,
  equipment: lookupField.equipment,
  mode: lookupField.mode,
  miles: lookupField.miles,
  include_fuel_surcharge: lookupField.include_fuel_surcharge,
  // TypeBox's own Integer (as diesel-trends): Elysia's t.Integer would also take numeric strings.
  horizon_weeks: t.Optional(
    Type.Integer({
      minimum: horizonWeeks.value.min,
      maximum: horizonWeeks.value.max,
      default: horizonWeeks.value.default,
      description: `Weeks to forecast, ${horizonWeeks.value.min}..${horizonWeeks.value.max}; default ${horizonWeeks.value.default}`,
    }),
  ),
  as_of: lookupField.as_of,
});

const interval = (level: string) =>
  t.Object({ lower: t.Number(), upper: t.Number() }, { description: `Central ${level} interval of rate_per_mile, USD per mile` });

const nullableNumber = (description: string) => t.Nullable(t.Number({ description }));
const lookupAnswer = rateLookupOutput.properties;

export const rateForecastOutput = t.Object({
  as_of: t.String(),
  horizon_weeks: t.Integer(),
  lane: t.Object({
    origin: t.String({ description: '"City, ST" as resolved' }),
    destination: t.String(),
    equipment: lookupAnswer.equipment,
    mode: lookupAnswer.mode,
    miles: t.Number(),
  }),
  starting_rate: t.Object(
    {
      rate_per_mile: lookupAnswer.rate_per_mile,
      total_cost: lookupAnswer.total_cost,
      diesel_price: t.Number({ description: "The lane's diesel, USD per gallon" }),
      diesel_week: t.String({ description: "The newest EIA week in that price" }),
      confidence: lookupAnswer.confidence,
    },
    { description: "rate-lookup's answer for the lane as of as_of" },
  ),
  forecast: t.Array(
    t.Object({
      week: t.Integer({ minimum: 1 }),
      date: t.String({ description: "The EIA survey Monday this point forecasts" }),
      weeks_after_last_observation: t.Integer({ description: "The forecast step: weeks from the newest diesel week to this one" }),
      diesel_p50: t.Number({ description: "Median lane diesel price, USD per gallon" }),
      p50: t.Number({ description: "Median rate_per_mile, USD per mile" }),
      interval_80: interval("80%"),
      interval_95: interval("95%"),
    }),
    { description: "Week k is the k-th EIA survey Monday after as_of" },
  ),
  method: t.Object({
    name: t.String(),
    description: t.String(),
    diesel_series: t.Array(t.String(), { description: "EIA series averaged into the lane's diesel, as rate-lookup does" }),
    window: t.Object({ weeks: t.Integer(), from: t.String(), to: t.String() }),
    changes_per_horizon: t.Object({ min: t.Integer(), max: t.Integer() }, { description: "h-week log changes the window held" }),
    held_at_as_of: t.Array(t.String(), { description: "Cost inputs carried at their as-of values" }),
  }),
  backtest: t.Object({
    description: t.String(),
    origins: t.Integer({ description: "Forecast origins scored" }),
    first_origin: t.Nullable(t.String()),
    last_origin: t.Nullable(t.String()),
    horizons: t.Array(
      t.Object({
        weeks: t.Integer(),
        forecasts: t.Integer(),
        mape_percent: nullableNumber("Mean absolute percentage error of the median rate_per_mile"),
        coverage_80: nullableNumber("Share of outcomes inside the 80% interval (0..1)"),
        coverage_95: nullableNumber("Share of outcomes inside the 95% interval (0..1)"),
      }),
    ),
  }),
  factor_versions: t.Array(factorVersionSchema),
  model_version: t.String(),
});
