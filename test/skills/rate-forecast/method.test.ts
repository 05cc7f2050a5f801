import { describe, expect, test } from "bun:test";
import { shiftDate } from "../../../src/reference/series/series-stats.ts";
import type { WeeklyPrice } from "../../../src/skills/rate-forecast/lane-diesel-history.ts";
import { forecastLogChanges, priceQuantiles, seasonalLogChange } from "../../../src/skills/rate-forecast/method.ts";
import { defined } from "../../support/defined.ts";

const FIRST_MONDAY = "2020-01-06";

const newestWeek = (history: readonly WeeklyPrice[]) => defined(history.at(-1), "the newest week");

/** Week `week`'s quantiles of a `horizon`-week forecast the test knows is made. */
function forecastWeek(history: readonly WeeklyPrice[], originDate: string, horizon: number, week: number) {
  const steps = defined(forecastLogChanges(history, originDate, horizon), `a ${horizon}-week forecast`);
  return defined(steps[week - 1], `week ${week} of the forecast`);
}

/** Weekly prices from 100, each week's log change taken in turn from `changes`. */
function seriesFromLogChanges(changes: readonly number[]): WeeklyPrice[] {
  const weeks: WeeklyPrice[] = [{ date: FIRST_MONDAY, value: 100 }];
  for (const change of changes) {
    const previous = newestWeek(weeks);
    weeks.push({ date: shiftDate(previous.date, { days: 7 }), value: previous.value * Math.exp(change) });
  }
  return weeks;
}

describe("random walk with empirical h-week changes, by hand", () => {
  test("steady 1% weekly growth is not extrapolated: the last price, with no spread", () => {
    const history = seriesFromLogChanges(Array.from({ length: 200 }, () => Math.log(1.01)));
    const last = newestWeek(history);
    const week4 = priceQuantiles(last.value, forecastWeek(history, last.date, 4, 4));
    for (const value of Object.values(week4)) expect(value).toBeCloseTo(last.value, 9);
  });

  test("one-week quantiles are the type-7 quantiles of the window's 155 weekly changes, less their median", () => {
    // The 156-week window holds 155 weekly changes: -0.067, -0.066, ..., +0.087 (median 0.01) in a scrambled order.
    const ordered = Array.from({ length: 155 }, (_, i) => (i - 67) / 1000);
    const scrambled = ordered.map((_, i) => defined(ordered[(i * 2) % 155], `change ${(i * 2) % 155}`));
    const history = seriesFromLogChanges([0.5, ...scrambled]); // the first change falls outside the window
    // Before centring, position (n - 1) p gives p10 -> 15.4: -0.0516; p2.5 -> 3.85: -0.06315; p50 -> 77: 0.01.
    const last = newestWeek(history);
    const week1 = forecastWeek(history, last.date, 1, 1);
    expect(week1.changes).toBe(155);
    expect(week1.logChange.p50).toBeCloseTo(0, 12);
    expect(week1.logChange.p10).toBeCloseTo(-0.0616, 12);
    expect(week1.logChange.p90).toBeCloseTo(0.0616, 12);
    expect(week1.logChange.p2_5).toBeCloseTo(-0.07315, 12);
    expect(week1.logChange.p97_5).toBeCloseTo(0.07315, 12);
    expect(priceQuantiles(last.value, week1).p10).toBeCloseTo(last.value * Math.exp(-0.0616), 9);
  });

  test("an interval never narrows with the horizon", () => {
    // Prices alternate 100, 110, 100, ...: every two-week change is zero, yet the two-week interval
    // keeps the one-week interval's width around its median.
    const history = seriesFromLogChanges(Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? 1 : -1) * Math.log(1.1)));
    const origin = newestWeek(history).date;
    const week1 = forecastWeek(history, origin, 2, 1);
    const week2 = forecastWeek(history, origin, 2, 2);
    expect(week2.logChange.p50).toBe(0);
    expect(week2.logChange.p50 - week2.logChange.p2_5).toBeCloseTo(week1.logChange.p50 - week1.logChange.p2_5, 12);
    expect(week2.logChange.p97_5 - week2.logChange.p50).toBeCloseTo(week1.logChange.p97_5 - week1.logChange.p50, 12);
    expect(week1.logChange.p97_5 - week1.logChange.p2_5).toBeCloseTo(2 * Math.log(1.1), 12);
  });

  test("fewer than a year of changes at any horizon is no forecast", () => {
    const history = seriesFromLogChanges(Array.from({ length: 60 }, () => 0.001));
    // 61 weekly prices hold 61 - h changes over h weeks: 52 at nine weeks, 51 at ten.
    expect(forecastLogChanges(history, newestWeek(history).date, 9)).toBeDefined();
    expect(forecastLogChanges(history, newestWeek(history).date, 10)).toBeUndefined();
  });

  test("nothing after the origin is used", () => {
    const history = seriesFromLogChanges(Array.from({ length: 200 }, (_, i) => (i < 180 ? ((i % 3) - 1) / 100 : 0.05)));
    const origin = defined(history[180], "week 180").date; // the jumps come after it
    const week1 = forecastWeek(history, origin, 1, 1);
    expect(week1.logChange.p97_5).toBeCloseTo(0.01, 12);
  });
});

describe("diesel's seasonal shape", () => {
  const YEARS = 8;
  const BUMP_START = 10;
  /** Nine 52-week years, flat but for a 4-week rise of `rises[k]` from week 10 of the year k years before the last, undone 4 weeks later. */
  function seasonalSeries(rises: readonly number[]): { history: WeeklyPrice[]; origin: string } {
    const logs = new Float64Array(52 * (YEARS + 1) + 20);
    rises.forEach((rise, index) => {
      const start = BUMP_START + 52 * (YEARS - 1 - index);
      for (let week = 1; week <= 8; week++)
        logs[start + week] = week <= 4 ? (rise * week) / 4 : rise * (1 - (week - 4) / 4);
    });
    const history = Array.from(logs, (log, week) => ({
      date: shiftDate(FIRST_MONDAY, { days: 7 * week }),
      value: 100 * Math.exp(log),
    }));
    return { history, origin: defined(history[BUMP_START + 52 * YEARS], "the origin week").date };
  }

  test("years that agree give their median move", () => {
    const { history, origin } = seasonalSeries(Array.from({ length: YEARS }, () => 0.05));
    expect(seasonalLogChange(history, origin, 4)).toBeCloseTo(0.05, 10);
  });

  test("years that disagree on the direction hold the season flat", () => {
    const { history, origin } = seasonalSeries([0.05, 0.05, 0.05, 0.05, 0.05, -0.05, -0.05, -0.05]);
    expect(seasonalLogChange(history, origin, 4)).toBe(0);
  });
});
