import { mean } from "../../reference/series/series-stats.ts";
import { RATE_FORECAST_MODEL, type Quantiles } from "./constants.ts";
import type { WeeklyPrice } from "./lane-diesel-history.ts";
import { forecastLogChanges, type StepForecast, weeksAfter } from "./method.ts";

export interface HorizonScore {
  weeks: number;
  /** Forecasts whose outcome week is in the data. */
  forecasts: number;
  /** Mean absolute percentage error of the median rate; undefined without forecasts. */
  mapePercent: number | undefined;
  /** The same for the naive forecast: the rate at the origin, carried flat. */
  naiveMapePercent: number | undefined;
  /** Share of outcomes inside the 80% and the 95% interval. */
  coverage80: number | undefined;
  coverage95: number | undefined;
}

export interface Backtest {
  /** Forecast origins that were scored at some horizon, oldest first. */
  origins: string[];
  scores: HorizonScore[];
}

/** How the backtest prices a forecast and an outcome; both rest on what was published by their date. */
export interface BacktestPricing {
  /** The rate's quantiles `step.steps` weeks after `origin`, from the diesel price then and what was published by then. */
  forecast(origin: string, startPrice: number, step: StepForecast): Quantiles;
  /** The rate as it was at a date: that week's diesel, wage and equipment as published by then. */
  actual(date: string, diesel: number): number;
}

interface Outcome {
  absolutePercentError: number;
  naiveAbsolutePercentError: number;
  inside80: boolean;
  inside95: boolean;
}

const share = (outcomes: readonly Outcome[], inside: (outcome: Outcome) => boolean) =>
  outcomes.length === 0 ? undefined : outcomes.filter(inside).length / outcomes.length;
const meanOf = (outcomes: readonly Outcome[], value: (outcome: Outcome) => number) =>
  outcomes.length === 0 ? undefined : mean(outcomes.map(value));

/**
 * The method re-run from every `everyWeeks`-th week over the `spanWeeks` before the newest week, each forecast from
 * only the weeks up to its origin, and scored at each horizon against the rate as it turned out, beside the naive
 * forecast (the origin's rate, flat).
 */
export function backtestRates(
  history: readonly WeeklyPrice[],
  horizons: readonly number[],
  pricing: BacktestPricing,
): Backtest {
  const { spanWeeks, everyWeeks } = RATE_FORECAST_MODEL.backtest.value;
  const byDate = new Map(history.map((week) => [week.date, week.value]));
  const outcomes = new Map<number, Outcome[]>(horizons.map((h) => [h, []]));
  const origins: string[] = [];
  const newest = history.at(-1);
  const longest = Math.max(...horizons);

  for (let back = spanWeeks; newest && back >= everyWeeks; back -= everyWeeks) {
    const origin = weeksAfter(newest.date, -back);
    const startPrice = byDate.get(origin);
    if (startPrice === undefined) continue;
    const reachable = Math.min(longest, back);
    const steps = forecastLogChanges(history, origin, reachable);
    if (!steps) continue;
    const naive = pricing.actual(origin, startPrice);
    let scored = false;
    for (const h of horizons) {
      const date = weeksAfter(origin, h);
      const actualPrice = byDate.get(date);
      const step = steps[h - 1];
      if (h > reachable || actualPrice === undefined || !step) continue;
      const actual = pricing.actual(date, actualPrice);
      const rate = pricing.forecast(origin, startPrice, step);
      outcomes.get(h)?.push({
        absolutePercentError: (Math.abs(rate.p50 - actual) / actual) * 100,
        naiveAbsolutePercentError: (Math.abs(naive - actual) / actual) * 100,
        inside80: rate.p10 <= actual && actual <= rate.p90,
        inside95: rate.p2_5 <= actual && actual <= rate.p97_5,
      });
      scored = true;
    }
    if (scored) origins.push(origin);
  }

  const scores = horizons.map((weeks) => {
    const scoredOutcomes = outcomes.get(weeks) ?? [];
    return {
      weeks,
      forecasts: scoredOutcomes.length,
      mapePercent: meanOf(scoredOutcomes, (o) => o.absolutePercentError),
      naiveMapePercent: meanOf(scoredOutcomes, (o) => o.naiveAbsolutePercentError),
      coverage80: share(scoredOutcomes, (o) => o.inside80),
      coverage95: share(scoredOutcomes, (o) => o.inside95),
    };
  });
  return { origins, scores };
}
