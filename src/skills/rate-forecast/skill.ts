import type { Static } from "@sinclair/typebox";
import type { Observation } from "../../reference/storage/view.ts";
import { beforeData, distinctFactors } from "../kit.ts";
import { round } from "../kit.ts";
import { costAtDiesel, type CostScale, priceLane, type LaneFactors } from "../rate-lookup/index.ts";
import { defineSkill } from "../types.ts";
import { backtestRates } from "./backtest.ts";
import { RATE_FORECAST_MODEL } from "./constants.ts";
import { laneDieselHistory } from "./lane-diesel-history.ts";
import { forecastLogChanges, forecastWindow, priceQuantiles, seasonalLogChange, weeksAfter } from "./method.ts";
import { rateForecastInput, rateForecastOutput } from "./schema.ts";
import {
  type CostTrend,
  type CostTrends,
  costHistories,
  costTrendsAsOf,
  levelScale,
  projectedScale,
} from "./trends.ts";
import { daysBetween } from "../../dates.ts";

type Output = Static<typeof rateForecastOutput>;

const { windowWeeks, backtest: backtestPlan, horizonWeeks, method, seasonality } = RATE_FORECAST_MODEL;
const perMile = (value: number) => round(value, 3);
const orNull = (value: number | undefined, decimals: number) => (value === undefined ? null : round(value, decimals));

const percentPerYear = (trend: CostTrend) => `${round(trend.annualRate * 100, 2)} % a year`;

/** The cost lines projected from their own history, in words. */
const projected = (trends: CostTrends): string[] => [
  "diesel: random walk with its seasonal shape (the same weeks of the last 8 years, each year's trend taken off), held flat at a horizon where fewer than 80 % of those years moved the same way",
  ...(trends.wage
    ? [
        `driver wage: ${percentPerYear(trends.wage)} as each yearly OEWS edition falls due, the national OEWS median from ${trends.wage.from.value} (${trends.wage.from.observedOn}) to ${trends.wage.to.value} (${trends.wage.to.observedOn})`,
      ]
    : []),
  ...(trends.equipment
    ? [
        `equipment: ${percentPerYear(trends.equipment)} as each monthly PPI release falls due, the heavy-truck PPI from ${trends.equipment.from.value} (${trends.equipment.from.observedOn}) to ${trends.equipment.to.value} (${trends.equipment.to.observedOn})`,
      ]
    : []),
];

/** The cost lines held at their as-of values, and why. */
const heldAtAsOf = (factors: LaneFactors, trends: CostTrends): string[] => [
  ...(trends.wage
    ? []
    : [`driver wage ${round(factors.driverWage.hourly, 2)} USD/h: fewer than two OEWS editions published by as_of`]),
  ...(trends.equipment
    ? []
    : [
        `equipment ${round(factors.equipmentCost.perMile, 4)} USD/mile: no heavy-truck PPI month a year before the newest`,
      ]),
  ...(factors.offRoadTaxRelief > 0
    ? [`reefer fuel excise relief ${round(factors.offRoadTaxRelief, 4)} USD/gal: excise changes by law, not by trend`]
    : []),
  "margin, mode and equipment multipliers and the lane balance: model constants, no history to project",
];

const combined = (a: CostScale, b: CostScale): CostScale => ({
  wage: a.wage * b.wage,
  equipment: a.equipment * b.equipment,
});

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
    "price as a random walk with its seasonal shape, intervals from its h-week changes over three years, the driver wage and " +
    "equipment cost projected by their own trends, passed through the rate-lookup cost model, with the backtest error and " +
    "interval coverage over the previous two years beside the naive (last value) forecast's.",
  rest: { method: "POST", path: "/v1/rates/forecast" },
  input: rateForecastInput,
  output: rateForecastOutput,
  replayable: true,
  asOf: (input) => input.as_of,
  handler(input, { data: view }) {
    const horizon = input.horizon_weeks ?? horizonWeeks.value.default;
    const start = priceLane(input, view);
    const { factors } = start;
    const rateAt = (diesel: number, scale?: CostScale) => costAtDiesel(factors, diesel, scale).ratePerMile;
    const histories = costHistories(view);
    const trends = costTrendsAsOf(histories, view.asOf);

    // The forecast starts from rate-lookup's diesel price, dated by its newest EIA week; the weeks between
    // that week and as_of are forecast too (they are not known yet), so week 1 is the first Monday after as_of.
    const lastWeek = factors.diesel
      .map((reading) => reading.observation.observedOn)
      .sort()
      .at(-1);
    if (lastWeek === undefined) throw new Error("rate-lookup prices a lane from at least one diesel reading");
    const unseenWeeks = Math.floor(daysBetween(lastWeek, view.asOf) / 7);
    const history = laneDieselHistory(
      view,
      factors.diesel,
      weeksAfter(lastWeek, -(windowWeeks.value + backtestPlan.value.spanWeeks + 1 + 52 * seasonality.value.years)),
    );
    const steps = forecastLogChanges(history.weeks, lastWeek, unseenWeeks + horizon);
    if (!steps) throw beforeData(`${windowWeeks.value} weeks of diesel prices for the lane`, view.asOf);

    const forecast: Output["forecast"] = steps.slice(unseenWeeks).map((step, index) => {
      const seasonalStart = factors.dieselPerGallon * Math.exp(seasonalLogChange(history.weeks, lastWeek, step.steps));
      const scale = projectedScale(trends, view.asOf, weeksAfter(lastWeek, step.steps));
      const rate = priceQuantiles(seasonalStart, step, (diesel) => rateAt(diesel, scale));
      return {
        week: index + 1,
        date: weeksAfter(lastWeek, step.steps),
        weeks_after_last_observation: step.steps,
        diesel_p50: round(priceQuantiles(seasonalStart, step).p50, 4),
        p50: perMile(rate.p50),
        interval_80: { lower: perMile(rate.p10), upper: perMile(rate.p90) },
        interval_95: { lower: perMile(rate.p2_5), upper: perMile(rate.p97_5) },
      };
    });

    const horizons = [...new Set([1, 4, horizon])].sort((a, b) => a - b);
    const backtest = backtestRates(history.weeks, horizons, {
      forecast: (origin, startPrice, step) => {
        const scale = combined(
          levelScale(histories, origin, view.asOf),
          projectedScale(costTrendsAsOf(histories, origin), origin, weeksAfter(origin, step.steps)),
        );
        const seasonalStart = startPrice * Math.exp(seasonalLogChange(history.weeks, origin, step.steps));
        return priceQuantiles(seasonalStart, step, (diesel) => rateAt(diesel, scale));
      },
      actual: (date, diesel) => rateAt(diesel, levelScale(histories, date, view.asOf)),
    });
    const window = forecastWindow(history.weeks, lastWeek);
    const [windowStart] = window;
    const windowEnd = window.at(-1);
    if (!windowStart || !windowEnd) throw new Error("the forecast window holds the weeks its changes were measured on");
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
        window: { weeks: windowWeeks.value, from: windowStart.date, to: windowEnd.date },
        changes_per_horizon: {
          min: Math.min(...steps.map((step) => step.changes)),
          max: Math.max(...steps.map((step) => step.changes)),
        },
        projected: projected(trends),
        held_at_as_of: heldAtAsOf(factors, trends),
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
          naive_mape_percent: orNull(score.naiveMapePercent, 2),
          coverage_80: orNull(score.coverage80, 3),
          coverage_95: orNull(score.coverage95, 3),
        })),
      },
      factor_versions: distinctFactors([
        ...start.used,
        ...historyBounds(history.bySeries, windowStart.date),
        ...[trends.wage, trends.equipment].flatMap((trend) => (trend ? [trend.from, trend.to] : [])),
      ]),
      model_version: RATE_FORECAST_MODEL.version,
    };
    return { answer, factorVersions: answer.factor_versions, modelVersion: RATE_FORECAST_MODEL.version };
  },
});
