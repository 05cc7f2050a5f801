import { describe, expect, test } from "bun:test";
import { rateForecastSkill } from "../../../src/skills/rate-forecast/skill.ts";
import { rateLookupSkill } from "../../../src/skills/rate-lookup/skill.ts";
import type { AnyReadingSkill } from "../../../src/skills/types.ts";
import { LOADED_AT, snapshotReferenceData } from "../../reference/helpers.ts";
import { callSkill, detailsOf, refusalOf, skillContext } from "../../support/skill-call.ts";
import { defined } from "../../support/defined.ts";

const { data } = await snapshotReferenceData();
const forecast = (raw: Record<string, unknown>) =>
  callSkill(rateForecastSkill as unknown as AnyReadingSkill, data, raw) as ReturnType<typeof rateForecastSkill.handler>;
const CHICAGO_DALLAS = { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" } as const;
const AS_OF = "2025-06-30"; // an EIA survey Monday: the newest diesel week is as_of itself

describe("Chicago -> Dallas dry van, 26 weeks from 2025-06-30", () => {
  const { answer, factorVersions } = forecast({ ...CHICAGO_DALLAS, horizon_weeks: 26, as_of: AS_OF });
  const width = (interval: { lower: number; upper: number }) => interval.upper - interval.lower;

  test("the starting rate is rate-lookup's answer as of as_of", async () => {
    const lookup = rateLookupSkill.handler(
      { ...CHICAGO_DALLAS, as_of: AS_OF },
      skillContext(data, data.view(AS_OF, LOADED_AT)),
    );
    expect(answer.starting_rate).toMatchObject({
      rate_per_mile: lookup.answer.rate_per_mile,
      total_cost: lookup.answer.total_cost,
      diesel_price: lookup.answer.data_sources.diesel_price,
      diesel_week: AS_OF,
    });
    expect(answer.method.diesel_series).toEqual(["EMD_EPD2D_PTE_R20_DPG", "EMD_EPD2D_PTE_R30_DPG"]);
  });

  test("one point a week for 26 Mondays after as_of", async () => {
    expect(answer.forecast.map((point) => point.week)).toEqual(Array.from({ length: 26 }, (_, i) => i + 1));
    expect(answer.forecast[0]).toMatchObject({ date: "2025-07-07", weeks_after_last_observation: 1 });
    expect(defined(answer.forecast.at(-1), "the last of answer.forecast").date).toBe("2025-12-29");
  });

  test("95% holds 80% holds the median, every week", async () => {
    for (const { p50, interval_80: i80, interval_95: i95 } of answer.forecast) {
      expect(i95.lower).toBeLessThanOrEqual(i80.lower);
      expect(i80.lower).toBeLessThanOrEqual(p50);
      expect(p50).toBeLessThanOrEqual(i80.upper);
      expect(i80.upper).toBeLessThanOrEqual(i95.upper);
    }
  });

  test("intervals widen with the horizon", async () => {
    const points = answer.forecast;
    // Relative to the median, which the season and the trends move; rounded to a tenth of a cent, so a step may dip.
    const relative = (point: (typeof points)[number], interval: { lower: number; upper: number }) =>
      width(interval) / point.p50;
    for (let k = 1; k < points.length; k++) {
      const [now, before] = [defined(points[k], "points[k]"), defined(points[k - 1], "points[k - 1]")];
      expect(relative(now, now.interval_95)).toBeGreaterThanOrEqual(relative(before, before.interval_95) - 0.002);
      expect(relative(now, now.interval_80)).toBeGreaterThanOrEqual(relative(before, before.interval_80) - 0.002);
    }
    expect(width(defined(points.at(-1), "the last of points").interval_95)).toBeGreaterThan(
      2 * width(defined(points[0], "points[0]").interval_95),
    );
  });

  test("diesel's season, the wage and the equipment cost are projected, and what is held flat says so", async () => {
    const [diesel, wage, equipment] = answer.method.projected;
    expect(diesel).toMatch(/^diesel: random walk with its seasonal shape/);
    expect(wage).toMatch(
      /^driver wage: -?\d+(\.\d+)? % a year as each yearly OEWS edition falls due, the national OEWS median from .* \(2023-05-01\) to .* \(2024-05-01\)$/,
    );
    expect(equipment).toMatch(
      /^equipment: -?\d+(\.\d+)? % a year as each monthly PPI release falls due, the heavy-truck PPI/,
    );
    expect(answer.method.held_at_as_of.some((line) => line.startsWith("margin"))).toBe(true);
    expect(answer.method.held_at_as_of.some((line) => line.startsWith("driver wage"))).toBe(false);
    // A one-week step moves the median by one week of season and trend only.
    expect(
      Math.abs(defined(answer.forecast[0], "answer.forecast[0]").p50 / answer.starting_rate.rate_per_mile - 1),
    ).toBeLessThan(0.01);
  });

  test("the backtest scores weeks 1, 4 and 26 with finite errors and coverage in [0, 1]", async () => {
    expect(answer.backtest.horizons.map((h) => h.weeks)).toEqual([1, 4, 26]);
    expect(answer.backtest.origins).toBe(26);
    for (const horizon of answer.backtest.horizons) {
      expect(horizon.forecasts).toBeGreaterThan(10);
      expect(Number.isFinite(horizon.mape_percent)).toBe(true);
      expect(Number.isFinite(horizon.naive_mape_percent)).toBe(true);
      for (const coverage of [
        defined(horizon.coverage_80, "horizon.coverage_80"),
        defined(horizon.coverage_95, "horizon.coverage_95"),
      ]) {
        expect(coverage).toBeGreaterThanOrEqual(0);
        expect(coverage).toBeLessThanOrEqual(1);
      }
      expect(defined(horizon.coverage_95, "horizon.coverage_95")).toBeGreaterThanOrEqual(
        defined(horizon.coverage_80, "horizon.coverage_80"),
      );
    }
    const [week1, , week26] = answer.backtest.horizons;
    expect(defined(defined(week26, "week26").mape_percent, "week26.mape_percent")).toBeGreaterThan(
      defined(defined(week1, "week1").mape_percent, "week1.mape_percent"),
    );
    expect(defined(answer.backtest.last_origin, "answer.backtest.last_origin") < AS_OF).toBe(true);
  });

  test("no factor is dated after as_of; the window's bounds and the wage are listed once each", async () => {
    expect(factorVersions.every((f) => f.observation_date <= AS_OF)).toBe(true);
    expect(answer.method.window).toEqual({ weeks: 156, from: "2022-07-11", to: AS_OF });
    const keys = factorVersions.map((f) => `${f.series_id}|${f.observation_date}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toContain("EMD_EPD2D_PTE_R20_DPG|2022-07-11");
    expect(keys).toContain("EMD_EPD2D_PTE_R30_DPG|2025-06-30");
    expect(keys).toContain("OEUS170000000000053303208|2024-05-01");
  });
});

test("diesel weeks not yet published by as_of are forecast too: week 1 is still the first Monday after as_of", async () => {
  const { answer } = forecast({ ...CHICAGO_DALLAS, horizon_weeks: 2, as_of: "2025-07-10" }); // a Thursday
  expect(answer.starting_rate.diesel_week).toBe("2025-07-07");
  expect(answer.forecast.map((point) => [point.date, point.weeks_after_last_observation])).toEqual([
    ["2025-07-14", 1],
    ["2025-07-21", 2],
  ]);
});

test("horizon_weeks defaults to 8; the fuel surcharge is a split and moves no quantile", async () => {
  const plain = forecast({ ...CHICAGO_DALLAS, as_of: AS_OF }).answer;
  const surcharged = forecast({ ...CHICAGO_DALLAS, as_of: AS_OF, include_fuel_surcharge: true }).answer;
  expect(plain.horizon_weeks).toBe(8);
  expect(plain.forecast).toHaveLength(8);
  expect(plain.backtest.horizons.map((h) => h.weeks)).toEqual([1, 4, 8]);
  expect(surcharged.forecast).toEqual(plain.forecast);
});

describe("refusals", () => {
  test.each([0, 27, 2.5])("horizon_weeks %p", (horizon) => {
    const error = refusalOf(() => forecast({ ...CHICAGO_DALLAS, horizon_weeks: horizon }));
    expect(detailsOf(error).map((d) => d.field)).toEqual(["horizon_weeks"]);
  });

  test("an unknown place is a 422 on its field", async () => {
    const error = refusalOf(() => forecast({ ...CHICAGO_DALLAS, destination: "Qqzx, ZZ" }));
    expect(error.body("req")).toMatchObject({ error: "UNRESOLVED_LOCATION", field: "destination" });
  });

  test("a lane whose diesel series is younger than the method needs is refused on as_of", async () => {
    // EIA's West Coast except California series starts in December 2011.
    const error = refusalOf(() =>
      forecast({ origin: "Seattle, WA", destination: "Boise, ID", equipment: "DRY_VAN", as_of: "2012-06-04" }),
    );
    expect(detailsOf(error).map((d) => d.field)).toEqual(["as_of"]);
  });
});
