import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { DIESEL_REGION_NAMES } from "../../../src/reference/geo/regions.ts";
import { dieselTrendsSkill } from "../../../src/skills/diesel-trends/skill.ts";
import type { AnyReadingSkill } from "../../../src/skills/types.ts";
import { snapshotReferenceData } from "../../reference/helpers.ts";
import { defined } from "../../support/defined.ts";
import { callSkill, detailsOf, refusalOf } from "../../support/skill-call.ts";
import { snapshotImportId } from "../../../src/reference/snapshot/index.ts";

const { data } = await snapshotReferenceData();
const skill = dieselTrendsSkill as unknown as AnyReadingSkill;
// GET skill: the raw input is a query string, every value a string.
const trends = (query: Record<string, string>) => {
  const result = callSkill(skill, data, query);
  return { ...result, answer: result.answer as ReturnType<typeof dieselTrendsSkill.handler>["answer"] };
};

describe("U.S. average, 13 weeks to the week of 2026-10-05", () => {
  const { answer, factorVersions } = trends({ region: "NATIONAL", weeks: "13", as_of: "2026-10-06" });
  // The snapshot's U.S. weeks 2026-07-13 .. 2026-10-05.
  const weekly = [4.796, 5.134, 5.313, 5.348, 5.257, 5.454, 5.652, 5.599, 5.967, 6.285, 6.529, 6.382, 6.199];

  test("the window is the last 13 weekly prices, oldest first", async () => {
    expect(answer.weeks).toBe(13); // "13" coerced to an integer
    expect(answer.latest).toEqual({ date: "2026-10-05", price: 6.199 });
    expect(answer.series.map((p) => p.price)).toEqual(weekly);
    expect(defined(answer.series[0], "the first week").date).toBe("2026-07-13");
  });

  test("changes over 1, 4, 13 and 52 weeks against the EIA week that many weeks earlier", async () => {
    expect(answer.changes).toEqual([
      { weeks: 1, from_date: "2026-09-28", from_price: 6.382, absolute: -0.183, percent: -2.87 },
      { weeks: 4, from_date: "2026-09-07", from_price: 5.967, absolute: 0.232, percent: 3.89 },
      { weeks: 13, from_date: "2026-07-06", from_price: 4.578, absolute: 1.621, percent: 35.41 },
      { weeks: 52, from_date: "2025-10-06", from_price: 3.711, absolute: 2.488, percent: 67.04 },
    ]);
  });

  test("moving averages and direction: the 4-week mean 11.66% over the 13-week mean is RISING", async () => {
    expect(answer.moving_averages.weeks_4).toBeCloseTo((6.199 + 6.382 + 6.529 + 6.285) / 4, 4);
    expect(answer.moving_averages.weeks_13).toBeCloseTo(weekly.reduce((a, b) => a + b) / 13, 4);
    expect(answer.direction).toMatchObject({ value: "RISING", ma_spread_percent: 11.66 });
  });

  test("factor versions: every week in the window and every change's base, once each", async () => {
    const dates = factorVersions.filter((f) => f.series_id === "EMD_EPD2D_PTE_NUS_DPG").map((f) => f.observation_date);
    expect(dates).toEqual(expect.arrayContaining([...answer.series.map((p) => p.date), "2026-07-06", "2025-10-06"]));
    expect(new Set(factorVersions.map((f) => `${f.series_id}|${f.observation_date}`)).size).toBe(factorVersions.length);
    expect(factorVersions.every((f) => f.observation_date <= "2026-10-06" && f.import_id === snapshotImportId())).toBe(
      true,
    );
    expect(factorVersions.find((f) => f.observation_date === "2025-10-06" && f.series_id.includes("NUS"))?.value).toBe(
      3.711,
    );
  });

  test("the answer matches the declared output schema", async () => {
    expect(Value.Check(dieselTrendsSkill.output, answer)).toBe(true);
  });
});

describe("regions", () => {
  test("every region side by side with its latest price and 4-week change", async () => {
    const { answer, factorVersions } = trends({ as_of: "2026-09-22" });
    expect(answer.region).toBe("NATIONAL");
    expect(answer.weeks).toBe(52);
    expect(answer.regions.map((r) => r.region)).toEqual(DIESEL_REGION_NAMES);
    expect(answer.regions.find((r) => r.region === "NATIONAL")).toMatchObject({
      latest_price: 6.529,
      change_4_weeks: 0.877,
    }); // 6.529 - 5.652 (2026-08-24)
    expect(answer.regions.find((r) => r.region === "PADD1A")).toMatchObject({
      latest_price: 6.517,
      observation_date: "2026-09-21",
      series_id: "EMD_EPD2D_PTE_R1X_DPG",
    });
    expect(
      defined(
        answer.regions.find((r) => r.region === "CALIFORNIA"),
        "California",
      ).latest_price,
    ).toBe(8.246);
    expect(factorVersions).toContainEqual(
      expect.objectContaining({ series_id: "EMD_EPD2D_PTE_SCA_DPG", value: 8.246, observation_date: "2026-09-21" }),
    );
  });

  test("a regional series that ends before the U.S. one is shown as it is, with a note", async () => {
    const { answer } = trends({ region: "PADD2", weeks: "4", as_of: "2026-10-06" });
    expect(answer.latest).toEqual({ date: "2026-09-21", price: 6.68 });
    expect(answer.series.map((p) => p.price)).toEqual([5.571, 5.946, 6.25, 6.68]);
    expect(answer.note).toContain("2026-10-05");
  });

  test("as_of cuts the data: a day before the survey Monday ends at the previous week", async () => {
    expect(trends({ as_of: "2026-09-20" }).answer.latest).toEqual({ date: "2026-09-14", price: 6.285 });
  });

  test("a series too young for the 13-week average has no direction and null long changes", async () => {
    // West Coast ex-California starts 2011-12-12: five weeks by 2012-01-10.
    const { answer } = trends({ region: "PADD5_EX_CA", as_of: "2012-01-10" });
    expect(answer.series).toHaveLength(5);
    expect(answer.direction.value).toBe("INSUFFICIENT_DATA");
    expect(answer.changes.find((c) => c.weeks === 52)).toEqual({
      weeks: 52,
      from_date: null,
      from_price: null,
      absolute: null,
      percent: null,
    });
    expect(answer.regions.find((r) => r.region === "PADD5_EX_CA")?.change_4_weeks).not.toBeNull();
  });
});

describe("refusals", () => {
  test.each([
    [{ weeks: "3" }, "weeks", /4/],
    [{ weeks: "261" }, "weeks", /260/],
    [{ weeks: "twelve" }, "weeks", /integer/],
    [{ as_of: "1990-01-01" }, "as_of", /before the data starts/],
    [{ region: "MIDWEST" }, "region", /NATIONAL, PADD1, PADD1A/],
  ])("%o -> 400 on %s", (query, field, problem) => {
    const error = refusalOf(() => trends(query));
    expect(error.status).toBe(400);
    expect(detailsOf(error)[0]).toMatchObject({ field, problem: expect.stringMatching(problem) });
  });

  test("an unknown region lists the allowed values", async () => {
    expect(
      defined(detailsOf(refusalOf(() => trends({ region: "MIDWEST" })))[0], "the refusal's detail").allowed,
    ).toEqual(DIESEL_REGION_NAMES);
  });
});
