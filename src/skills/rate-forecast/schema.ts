import { Type } from "@sinclair/typebox";
import { rateLookupInput, rateLookupOutput } from "../rate-lookup/index.ts";
import { factorVersionSchema, nullable } from "../schema-kit.ts";
import { RATE_FORECAST_MODEL } from "./constants.ts";

const lookupField = rateLookupInput.properties;
const { horizonWeeks } = RATE_FORECAST_MODEL;

export const rateForecastInput = Type.Object({
  origin: lookupField.origin,
  destination: lookupField.destination,
  equipment: lookupField.equipment,
  mode: lookupField.mode,
  miles: lookupField.miles,
  include_fuel_surcharge: lookupField.include_fuel_surcharge,
  horizon_weeks: Type.Optional(
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
  Type.Object(
    { lower: Type.Number(), upper: Type.Number() },
    { description: `Central ${level} interval of rate_per_mile, USD per mile` },
  );

const nullableNumber = (description: string) => nullable(Type.Number({ description }));
const lookupAnswer = rateLookupOutput.properties;

export const rateForecastOutput = Type.Object({
  as_of: Type.String(),
  horizon_weeks: Type.Integer(),
  lane: Type.Object({
    origin: Type.String({ description: '"City, ST" as resolved' }),
    destination: Type.String(),
    equipment: lookupAnswer.equipment,
    mode: lookupAnswer.mode,
    miles: Type.Number(),
  }),
  starting_rate: Type.Object(
    {
      rate_per_mile: lookupAnswer.rate_per_mile,
      total_cost: lookupAnswer.total_cost,
      diesel_price: Type.Number({ description: "The lane's diesel, USD per gallon" }),
      diesel_week: Type.String({ description: "The newest EIA week in that price" }),
      confidence: lookupAnswer.confidence,
    },
    { description: "rate-lookup's answer for the lane as of as_of" },
  ),
  forecast: Type.Array(
    Type.Object({
      week: Type.Integer({ minimum: 1 }),
      date: Type.String({ description: "The EIA survey Monday this point forecasts" }),
      weeks_after_last_observation: Type.Integer({
        description: "The forecast step: weeks from the newest diesel week to this one",
      }),
      diesel_p50: Type.Number({ description: "Median lane diesel price, USD per gallon" }),
      p50: Type.Number({ description: "Median rate_per_mile, USD per mile" }),
      interval_80: interval("80%"),
      interval_95: interval("95%"),
    }),
    { description: "Week k is the k-th EIA survey Monday after as_of" },
  ),
  method: Type.Object({
    name: Type.String(),
    description: Type.String(),
    diesel_series: Type.Array(Type.String(), {
      description: "EIA series averaged into the lane's diesel, as rate-lookup does",
    }),
    window: Type.Object({ weeks: Type.Integer(), from: Type.String(), to: Type.String() }),
    changes_per_horizon: Type.Object(
      { min: Type.Integer(), max: Type.Integer() },
      { description: "h-week log changes the window held" },
    ),
    projected: Type.Array(Type.String(), {
      description: "Cost lines projected from their own history, with the rate and the figures it came from",
    }),
    held_at_as_of: Type.Array(Type.String(), { description: "Cost inputs carried at their as-of values, and why" }),
  }),
  backtest: Type.Object({
    description: Type.String(),
    origins: Type.Integer({ description: "Forecast origins scored" }),
    first_origin: nullable(Type.String()),
    last_origin: nullable(Type.String()),
    horizons: Type.Array(
      Type.Object({
        weeks: Type.Integer(),
        forecasts: Type.Integer(),
        mape_percent: nullableNumber("Mean absolute percentage error of the median rate_per_mile"),
        naive_mape_percent: nullableNumber(
          "The same for the naive forecast (the rate at the origin, carried flat), on the same outcomes: the method must beat it",
        ),
        coverage_80: nullableNumber("Share of outcomes inside the 80% interval (0..1)"),
        coverage_95: nullableNumber("Share of outcomes inside the 95% interval (0..1)"),
      }),
    ),
  }),
  factor_versions: Type.Array(factorVersionSchema),
  model_version: Type.String(),
});
