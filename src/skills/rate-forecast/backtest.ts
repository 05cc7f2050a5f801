import { mean } from "../../reference/series/series-stats.ts";
import { RATE_FORECAST_MODEL } from "./constants.ts";
import type { WeeklyPrice } from "./lane-diesel-history.ts";
import { forecastLogChanges, priceQuantiles, weeksAfter } from "./method.ts";

export interface HorizonScore {
  weeks: number;
  /** Forecasts whose outcome week is in the data. */
  forecasts: number;
  /** Mean absolute percentage error of the median rate; undefined without forecasts. */
  mapePercent: number | undefined;
  /** Share of outcomes inside the 80% and the 95% interval. */
  coverage80: number | undefined;
  coverage95: number | undefined;
}

export interface Backtest {
  /** Forecast origins that were scored at some horizon, oldest first. */
  origins: string[];
  scores: HorizonScore[];
}

interface Outcome {
  absolutePercentError: number;
  inside80: boolean;
  inside95: boolean;
}

const share = (outcomes: readonly Outcome[], inside: (outcome: Outcome) => boolean) =>
  outcomes.length === 0 ? undefined : outcomes.filter(inside).length / outcomes.length;

/**
 * The method re-run from every `everyWeeks`-th week over the `spanWeeks` before the newest week, each
 * forecast from only the weeks up to its origin, and scored at each horizon against the rate the cost
 * model gives for the diesel price that week actually had.
 */
export function backtestRates(
  history: readonly WeeklyPrice[],
  horizons: readonly number[],
  rateAt: (diesel: number) => number,
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
    let scored = false;
    for (const h of horizons) {
      const actualPrice = byDate.get(weeksAfter(origin, h));
      if (h > reachable || actualPrice === undefined) continue;
      const actual = rateAt(actualPrice);
      const rate = priceQuantiles(startPrice, steps[h - 1]!, rateAt);
      outcomes.get(h)!.push({
        absolutePercentError: (Math.abs(rate.p50 - actual) / actual) * 100,
        inside80: rate.p10 <= actual && actual <= rate.p90,
        inside95: rate.p2_5 <= actual && actual <= rate.p97_5,
      });
      scored = true;
    }
    if (scored) origins.push(origin);
  }

  const scores = horizons.map((weeks) => {
    const scoredOutcomes = outcomes.get(weeks)!;
    return {
      weeks,
      forecasts: scoredOutcomes.length,
      mapePercent: scoredOutcomes.length === 0 ? undefined : mean(scoredOutcomes.map((o) => o.absolutePercentError)),
      coverage80: share(scoredOutcomes, (o) => o.inside80),
      coverage95: share(scoredOutcomes, (o) => o.inside95),
    };
  });
  return { origins, scores };
}
