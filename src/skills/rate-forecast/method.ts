import { shiftDate, quantile } from "../../reference/series-stats.ts";
import { QUANTILE_NAMES, RATE_FORECAST_MODEL, type Quantiles } from "./constants.ts";
import type { WeeklyPrice } from "./lane-diesel-history.ts";

const { quantiles: LEVELS, windowWeeks, minimumChanges } = RATE_FORECAST_MODEL;

export const weeksAfter = (date: string, weeks: number) => shiftDate(date, { days: 7 * weeks });

/** Quantiles of the log change over `steps` weeks; the forecast price is the last price times exp(each). */
export interface StepForecast {
  steps: number;
  logChange: Quantiles;
  /** How many h-week changes the window held. */
  changes: number;
}

/** The window the method learns from: the weeks in (origin - windowWeeks, origin]. */
export function forecastWindow(history: readonly WeeklyPrice[], originDate: string): WeeklyPrice[] {
  const start = weeksAfter(originDate, -windowWeeks.value);
  return history.filter((week) => week.date > start && week.date <= originDate);
}

function logChangesOver(window: readonly WeeklyPrice[], byDate: ReadonlyMap<string, number>, steps: number): number[] {
  const changes: number[] = [];
  for (const week of window) {
    const later = byDate.get(weeksAfter(week.date, steps));
    if (later !== undefined) changes.push(Math.log(later / week.value));
  }
  return changes.sort((a, b) => a - b);
}

/** Each side of each interval at least as wide, around the median, as the step before. */
function widenMonotonically(steps: StepForecast[]): StepForecast[] {
  const widened: StepForecast[] = [];
  for (const step of steps) {
    const previous = widened.at(-1);
    if (!previous) {
      widened.push(step);
      continue;
    }
    const { p50 } = step.logChange;
    const below = (name: "p2_5" | "p10") => p50 - Math.max(p50 - step.logChange[name], previous.logChange.p50 - previous.logChange[name]);
    const above = (name: "p90" | "p97_5") => p50 + Math.max(step.logChange[name] - p50, previous.logChange[name] - previous.logChange.p50);
    widened.push({ ...step, logChange: { p2_5: below("p2_5"), p10: below("p10"), p50, p90: above("p90"), p97_5: above("p97_5") } });
  }
  return widened;
}

/**
 * Random walk in logs with empirical h-step errors: for h = 1..maxSteps, the quantiles of every
 * h-week log change within the window ending at `originDate`, less their median. Undefined when any
 * horizon has fewer changes than the method trusts.
 */
export function forecastLogChanges(history: readonly WeeklyPrice[], originDate: string, maxSteps: number): StepForecast[] | undefined {
  const window = forecastWindow(history, originDate);
  const byDate = new Map(window.map((week) => [week.date, week.value]));
  const steps: StepForecast[] = [];
  for (let h = 1; h <= maxSteps; h++) {
    const changes = logChangesOver(window, byDate, h);
    if (changes.length < minimumChanges.value) return undefined;
    // Centred on the median change: the window's spread and skew are kept, its drift is not (see constants).
    const median = quantile(changes, 0.5);
    const logChange = Object.fromEntries(
      QUANTILE_NAMES.map((name) => [name, quantile(changes, LEVELS.value[name]) - median]),
    ) as Quantiles;
    steps.push({ steps: h, logChange, changes: changes.length });
  }
  return widenMonotonically(steps);
}

/** A price's quantiles after a forecast step, mapped through a function that rises with the price. */
export function priceQuantiles(lastPrice: number, step: StepForecast, through: (price: number) => number = (price) => price): Quantiles {
  return Object.fromEntries(QUANTILE_NAMES.map((name) => [name, through(lastPrice * Math.exp(step.logChange[name]))])) as Quantiles;
}
