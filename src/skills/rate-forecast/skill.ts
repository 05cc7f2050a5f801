import type { Static } from "@sinclair/typebox";
import type { Observation } from "../../reference/storage/view.ts";
import { beforeData, distinctFactors } from "../kit.ts";
import { round } from "../kit.ts";
import { costAtDiesel, priceLane, type LaneFactors } from "../rate-lookup/index.ts";
import { defineSkill } from "../types.ts";
import { backtestRates } from "./backtest.ts";
import { RATE_FORECAST_MODEL } from "./constants.ts";
import { laneDieselHistory } from "./lane-diesel-history.ts";
import { forecastLogChanges, forecastWindow, priceQuantiles, weeksAfter } from "./method.ts";
import { rateForecastInput, rateForecastOutput } from "./schema.ts";
import { daysBetween } from "../../dates.ts";

type Output = Static<typeof rateForecastOutput>;

const { windowWeeks, backtest: backtestPlan, horizonWeeks, method } = RATE_FORECAST_MODEL;
const perMile = (value: number) => round(value, 3);
const orNull = (value: number | undefined, decimals: number) => (value === undefined ? null : round(value, decimals));

const heldAtAsOf = (factors: LaneFactors): string[] => [
  `driver wage ${round(factors.driverWage.hourly, 2)} USD/h (${factors.wage.observation.seriesId}, ${factors.wage.observation.observedOn}${factors.driverWage.carriedForward ? ", carried forward by ATRI driver cost per mile" : ""})`,
  `equipment ${round(factors.equipmentCost.perMile, 4)} USD/mile (ATRI ${factors.equipmentCost.edition.edition} edition${factors.equipmentCost.carriedForward ? ", carried forward by the heavy-truck PPI" : ""})`,
  ...(factors.offRoadTaxRelief > 0 ? [`reefer fuel excise relief ${round(factors.offRoadTaxRelief, 4)} USD/gal`] : []),
  "margin and mode/equipment multipliers (rate-lookup constants)",
];

/** Each diesel series' first week in the forecast window and in the whole history read (the backtest's). */
function historyBounds(bySeries: readonly Observation[][], windowStart: string): Observation[] {
  return bySeries
    .flatMap((series) => [series.find((o) => o.observedOn >= windowStart), series[0]])
    .filter((o) => o !== undefined);
}

export const rateForecastSkill = defineSkill({
  name: "rate-forecast",
  minimumTier: "professional",
  description:
    "Weekly forecast of a lane's cost-basis rate per mile for 1 to 26 weeks, with 80% and 95% intervals: the lane's EIA diesel " +
    "price as a random walk, intervals from its h-week changes over three years, passed through the rate-lookup cost model, " +
    "with the method's backtest error and interval coverage over the previous two years.",
  rest: { method: "POST", path: "/v1/rates/forecast" },
  input: rateForecastInput,
  output: rateForecastOutput,
  replayable: true,
  asOf: (input) => input.as_of,
  handler(input, { data: view }) {
    const horizon = input.horizon_weeks ?? horizonWeeks.value.default;
    const start = priceLane(input, view);
    const { factors } = start;
    const rateAt = (diesel: number) => costAtDiesel(factors, diesel).ratePerMile;

    // The forecast starts from rate-lookup's diesel price, dated by its newest EIA week; the weeks between
    // that week and as_of are forecast too (they are not known yet), so week 1 is the first Monday after as_of.
    const lastWeek = factors.diesel
      .map((reading) => reading.observation.observedOn)
      .sort()
      .at(-1)!;
    const unseenWeeks = Math.floor(daysBetween(lastWeek, view.asOf) / 7);
    const history = laneDieselHistory(
      view,
      factors.diesel,
      weeksAfter(lastWeek, -(windowWeeks.value + backtestPlan.value.spanWeeks + 1)),
    );
    const steps = forecastLogChanges(history.weeks, lastWeek, unseenWeeks + horizon);
    if (!steps) throw beforeData(`${windowWeeks.value} weeks of diesel prices for the lane`, view.asOf);

    const forecast: Output["forecast"] = steps.slice(unseenWeeks).map((step, index) => {
      const rate = priceQuantiles(factors.dieselPerGallon, step, rateAt);
      return {
        week: index + 1,
        date: weeksAfter(lastWeek, step.steps),
        weeks_after_last_observation: step.steps,
        diesel_p50: round(priceQuantiles(factors.dieselPerGallon, step).p50, 4),
        p50: perMile(rate.p50),
        interval_80: { lower: perMile(rate.p10), upper: perMile(rate.p90) },
        interval_95: { lower: perMile(rate.p2_5), upper: perMile(rate.p97_5) },
      };
    });

    const horizons = [...new Set([1, 4, horizon])].sort((a, b) => a - b);
    const backtest = backtestRates(history.weeks, horizons, rateAt);
    const window = forecastWindow(history.weeks, lastWeek);
    const answer: Output = {
      as_of: view.asOf,
      horizon_weeks: horizon,
      lane: {
        origin: `${start.answer.origin.city}, ${start.answer.origin.state}`,
        destination: `${start.answer.destination.city}, ${start.answer.destination.state}`,
        equipment: start.answer.equipment,
        mode: start.answer.mode,
        miles: start.answer.miles,
      },
      starting_rate: {
        rate_per_mile: start.answer.rate_per_mile,
        total_cost: start.answer.total_cost,
        diesel_price: start.answer.data_sources.diesel_price,
        diesel_week: lastWeek,
        confidence: start.answer.confidence,
      },
      forecast,
      method: {
        name: method.value,
        description: method.source,
        diesel_series: factors.diesel.map((reading) => reading.observation.seriesId),
        window: { weeks: windowWeeks.value, from: window[0]!.date, to: window.at(-1)!.date },
        changes_per_horizon: {
          min: Math.min(...steps.map((step) => step.changes)),
          max: Math.max(...steps.map((step) => step.changes)),
        },
        held_at_as_of: heldAtAsOf(factors),
      },
      backtest: {
        description: backtestPlan.source,
        origins: backtest.origins.length,
        first_origin: backtest.origins[0] ?? null,
        last_origin: backtest.origins.at(-1) ?? null,
        horizons: backtest.scores.map((score) => ({
          weeks: score.weeks,
          forecasts: score.forecasts,
          mape_percent: orNull(score.mapePercent, 2),
          coverage_80: orNull(score.coverage80, 3),
          coverage_95: orNull(score.coverage95, 3),
        })),
      },
      factor_versions: distinctFactors([...start.used, ...historyBounds(history.bySeries, window[0]!.date)]),
      model_version: RATE_FORECAST_MODEL.version,
    };
    return { answer, factorVersions: answer.factor_versions, modelVersion: RATE_FORECAST_MODEL.version };
  },
});
