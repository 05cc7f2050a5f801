import { shiftDate, quantile } from "../../reference/series/series-stats.ts";
import { QUANTILE_NAMES, RATE_FORECAST_MODEL, type Quantiles } from "./constants.ts";
import type { WeeklyPrice } from "./lane-diesel-history.ts";
import { WEEK_MS } from "../../dates.ts";

const { quantiles: LEVELS, windowWeeks, minimumChanges, seasonality } = RATE_FORECAST_MODEL;

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

/** Whole weeks since the epoch: EIA weeks are all Mondays, so a week and the next differ by exactly 1. */
const weekNumber = (date: string) => Math.round(Date.parse(`${date}T00:00:00Z`) / WEEK_MS);

/** The window's log prices on a gap-free weekly grid, NaN for a week without a price. */
function logPriceGrid(window: readonly WeeklyPrice[]): Float64Array {
  const [firstWeek] = window;
  const lastWeek = window.at(-1);
  if (!firstWeek || !lastWeek) return new Float64Array(0);
  const first = weekNumber(firstWeek.date);
  const grid = new Float64Array(weekNumber(lastWeek.date) - first + 1).fill(Number.NaN);
  for (const week of window) grid[weekNumber(week.date) - first] = Math.log(week.value);
  return grid;
}

/** The grid's week i, for an index its caller keeps in range. */
function gridAt(grid: Float64Array, i: number): number {
  const value = grid[i];
  if (value === undefined) throw new Error(`week ${i} is outside the ${grid.length}-week grid`);
  return value;
}

/** Every `steps`-week log change between two priced weeks of the grid, ascending. */
function logChangesOver(grid: Float64Array, steps: number): Float64Array {
  const changes = new Float64Array(Math.max(0, grid.length - steps));
  let count = 0;
  for (let i = 0; i + steps < grid.length; i++) {
    const change = gridAt(grid, i + steps) - gridAt(grid, i);
    if (!Number.isNaN(change)) changes[count++] = change;
  }
  // Typed arrays sort numerically without a comparator call; the backtest sorts several hundred of these.
  return changes.subarray(0, count).sort();
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
    const below = (name: "p2_5" | "p10") =>
      p50 - Math.max(p50 - step.logChange[name], previous.logChange.p50 - previous.logChange[name]);
    const above = (name: "p90" | "p97_5") =>
      p50 + Math.max(step.logChange[name] - p50, previous.logChange[name] - previous.logChange.p50);
    widened.push({
      ...step,
      logChange: { p2_5: below("p2_5"), p10: below("p10"), p50, p90: above("p90"), p97_5: above("p97_5") },
    });
  }
  return widened;
}

/**
 * Random walk in logs with empirical h-step errors: for h = 1..maxSteps, the quantiles of every
 * h-week log change within the window ending at `originDate`, less their median. Undefined when any
 * horizon has fewer changes than the method trusts.
 */
export function forecastLogChanges(
  history: readonly WeeklyPrice[],
  originDate: string,
  maxSteps: number,
): StepForecast[] | undefined {
  const grid = logPriceGrid(forecastWindow(history, originDate));
  const steps: StepForecast[] = [];
  for (let h = 1; h <= maxSteps; h++) {
    const changes = logChangesOver(grid, h);
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
export function priceQuantiles(
  lastPrice: number,
  step: StepForecast,
  through: (price: number) => number = (price) => price,
): Quantiles {
  return Object.fromEntries(
    QUANTILE_NAMES.map((name) => [name, through(lastPrice * Math.exp(step.logChange[name]))]),
  ) as Quantiles;
}

/**
 * Diesel's seasonal move over `steps` weeks from the origin's time of year: for each of the last years, the log change
 * from the same week then over `steps` weeks, less that year's own 52-week change pro rata (its trend, which a random
 * walk does not carry); the median of those years. 0 when fewer years than the method trusts are in the history, or
 * when too few of them moved the way the median did (a season the years disagree on is noise, not a shape).
 * Reads only weeks up to the origin.
 */
export function seasonalLogChange(history: readonly WeeklyPrice[], originDate: string, steps: number): number {
  const logPrice = new Map(history.filter((w) => w.date <= originDate).map((w) => [w.date, Math.log(w.value)]));
  const shapes: number[] = [];
  for (let year = 1; year <= seasonality.value.years; year++) {
    const start = weeksAfter(originDate, -52 * year);
    const atStart = logPrice.get(start);
    const atStep = logPrice.get(weeksAfter(start, steps));
    const ayearOn = logPrice.get(weeksAfter(start, 52));
    if (atStart === undefined || atStep === undefined || ayearOn === undefined) continue;
    shapes.push(atStep - atStart - (steps / 52) * (ayearOn - atStart));
  }
  if (shapes.length < seasonality.value.minimumYears) return 0;
  const shape = quantile(
    shapes.sort((a, b) => a - b),
    0.5,
  );
  const agreeing = shapes.filter((move) => Math.sign(move) === Math.sign(shape)).length;
  return agreeing / shapes.length >= seasonality.value.minimumAgreement ? shape : 0;
}
