import { describe, expect, test } from "bun:test";
import { Value } from "@sinclair/typebox/value";
import { DIESEL_REGION_NAMES } from "../../../src/reference/geo/regions.ts";
import { MARKET_MODEL } from "../../../src/skills/market-analysis/constants.ts";
import { marketAnalysisSkill } from "../../../src/skills/market-analysis/skill.ts";
import type { AnyReadingSkill } from "../../../src/skills/types.ts";
import { snapshotReferenceData } from "../../reference/helpers.ts";
import { defined } from "../../support/defined.ts";
import { callSkill, detailsOf, refusalOf } from "../../support/skill-call.ts";

const { data } = await snapshotReferenceData();
const skill = marketAnalysisSkill as unknown as AnyReadingSkill;
const analyse = (raw: Record<string, unknown>) => {
  const result = callSkill(skill, data, raw);
  return { ...result, answer: result.answer as ReturnType<typeof marketAnalysisSkill.handler>["answer"] };
};
const pct = (latest: number, earlier: number) => (latest / earlier - 1) * 100;

describe("as of 2026-01-31, when every monthly series has a recent published figure", () => {
  // A figure counts once published: PPI, industrial production, employment and fed funds for December;
  // TSI (two months behind) for November; WTI a week behind the trading day.
  const { answer, factorVersions, modelVersion } = analyse({ as_of: "2026-01-31" });
  const byId = (id: string) =>
    defined(
      answer.indicators.find((i) => i.id === id),
      `indicator ${id}`,
    );

  test("each indicator's latest value, date and 3-month trend from the snapshot", async () => {
    expect(byId("truck_freight_ppi")).toMatchObject({
      series_id: "WPU301",
      latest: { value: 175.023, date: "2025-12-01" },
      trend: { lookback_months: 3, from_date: "2025-09-01", from_value: 173.046, change: 1.977 },
      fresh: true,
    });
    expect(byId("freight_tsi").latest).toEqual({ value: 137.2, date: "2025-11-01" });
    expect(byId("fed_funds").trend).toMatchObject({ from_value: 4.22, change: -0.5 });
    // Weekly diesel: the EIA week on or before 2025-10-26 (three months before the latest, 2026-01-26).
    expect(byId("diesel")).toMatchObject({
      series_id: "EMD_EPD2D_PTE_NUS_DPG",
      latest: { value: 3.624, date: "2026-01-26" },
      trend: { from_date: "2025-10-20", from_value: 3.62 },
    });
  });

  test("z-scores against the 36 monthly values before the latest (hand-computed)", async () => {
    expect(byId("fed_funds").z_score).toMatchObject({ value: -2.22, observations: 36, window_start: "2022-12-01" });
    expect(byId("truck_freight_ppi").z_score).toMatchObject({ value: 2.23, observations: 36 });
  });

  test("the composite is the weighted mean of the clamped, signed trends", async () => {
    const signals = {
      truck_freight_ppi: pct(175.023, 173.046) / 2,
      freight_tsi: pct(137.2, 139) / 2.5,
      industrial_production: pct(101.4941, 101.668) / 2,
      truck_employment: -pct(1467.2, 1472.3) / 1.5, // more jobs loosen
      diesel: pct(3.624, 3.62) / 15,
      fed_funds: -(3.72 - 4.22) / 0.75, // points; a cut tightens
    };
    const weights = {
      truck_freight_ppi: 0.25,
      freight_tsi: 0.2,
      industrial_production: 0.15,
      truck_employment: 0.15,
      diesel: 0.1,
      fed_funds: 0.1,
    };
    const ids = Object.keys(signals) as (keyof typeof signals)[];
    const score = ids.reduce((sum, id) => sum + weights[id] * signals[id], 0) / 0.95;
    expect(defined(answer.signal.score, "the composite score")).toBeCloseTo(score, 3); // about 0.16
    expect(answer.signal).toMatchObject({ value: "BALANCED", coverage: 0.95 });
    for (const id of ids)
      expect(defined(byId(id).contribution, `${id}'s contribution`)).toBeCloseTo(weights[id] * signals[id], 3);
  });

  test("an indicator without a 3-month-old observation is shown but not counted, and the reasons say so", async () => {
    // WTI in the snapshot starts 2025-12-01.
    expect(byId("wti_crude")).toMatchObject({
      latest: { value: 60.7, date: "2026-01-23" },
      trend: null,
      contribution: null,
    });
    expect(answer.signal.reasons.at(-1)).toBe("WTI crude oil spot left out: no observation 3 months before its latest");
    expect(answer.signal.reasons[0]).toStartWith("PPI truck transportation of freight up 1.14% over 3 months");
  });

  test("factor versions: every latest, trend base and z-score window observation, once, none after as_of", async () => {
    for (const indicator of answer.indicators) {
      expect(factorVersions).toContainEqual(
        expect.objectContaining({
          series_id: indicator.series_id,
          observation_date: indicator.latest.date,
          value: indicator.latest.value,
        }),
      );
      if (indicator.trend)
        expect(factorVersions).toContainEqual(
          expect.objectContaining({ series_id: indicator.series_id, observation_date: indicator.trend.from_date }),
        );
    }
    expect(factorVersions.filter((f) => f.series_id === "FEDFUNDS")).toHaveLength(37);
    expect(new Set(factorVersions.map((f) => `${f.series_id}|${f.observation_date}`)).size).toBe(factorVersions.length);
    expect(factorVersions.every((f) => f.observation_date <= "2026-01-31")).toBe(true);
    expect(modelVersion).toBe(MARKET_MODEL.version);
  });

  test("the answer matches the declared output schema", async () => {
    expect(Value.Check(marketAnalysisSkill.output, answer)).toBe(true);
  });
});

describe("signals over the cycle and over time", () => {
  test("2021's boom reads TIGHTENING, mid-2023's freight recession LOOSENING", async () => {
    expect(analyse({ as_of: "2021-12-31" }).answer.signal.value).toBe("TIGHTENING");
    expect(analyse({ as_of: "2023-06-30" }).answer.signal.value).toBe("LOOSENING");
  });

  test("as_of cuts every series by publication: on 2025-12-31 the PPI's latest is November's, published 2025-12-15", async () => {
    const { answer, factorVersions } = analyse({ as_of: "2025-12-31" });
    expect(
      defined(
        answer.indicators.find((i) => i.id === "truck_freight_ppi"),
        "the PPI indicator",
      ).latest.date,
    ).toBe("2025-11-01");
    expect(factorVersions.every((f) => f.observation_date <= "2025-12-31")).toBe(true);
  });

  test("stale indicators are left out; with under half the weight fresh the signal is INSUFFICIENT_DATA", async () => {
    // A named as_of long after the data: the signal for that day, which cannot be read.
    const { answer } = analyse({ as_of: "2026-11-22" }); // PPI ends 2025-12
    expect(answer.signal).toMatchObject({ value: "INSUFFICIENT_DATA", score: null });
    expect(answer.signal.coverage).toBeLessThan(MARKET_MODEL.signal.value.minCoverage);
    expect(answer.signal.reasons).toContain(
      "PPI truck transportation of freight left out: latest observation 2025-12-01 is 356 days old (limit 150)",
    );
    expect(answer.indicators.find((i) => i.id === "truck_freight_ppi")).toMatchObject({
      fresh: false,
      contribution: null,
    });
  });

  test("without as_of, the signal comes from the newest month-end with enough fresh indicators, labelled with it", async () => {
    const { answer, factorVersions } = analyse({}); // today: 2026-11-22
    expect(answer.as_of).toBe("2026-11-22");
    expect(answer.signal.value).not.toBe("INSUFFICIENT_DATA");
    expect(answer.signal.coverage).toBeGreaterThanOrEqual(MARKET_MODEL.signal.value.minCoverage);
    expect(answer.signal_as_of).toMatch(/^2026-\d{2}-(28|29|30|31)$/);
    expect(answer.signal.reasons[0]).toStartWith(
      `Read as of ${answer.signal_as_of}, the newest month-end with enough fresh indicators`,
    );
    const signalAsOf = defined(answer.signal_as_of, "the signal's as-of day");
    expect(factorVersions.every((f) => f.observation_date <= signalAsOf)).toBe(true);
  });

  test("the diesel indicator follows the region, falling back when the regional series lags", async () => {
    expect(
      defined(
        analyse({ as_of: "2025-12-31", region: "PADD2" }).answer.indicators.find((i) => i.id === "diesel"),
        "the diesel indicator",
      ).series_id,
    ).toBe("EMD_EPD2D_PTE_R20_DPG");
    const lagging = analyse({ as_of: "2026-10-06", region: "PADD2" }).answer;
    expect(
      defined(
        lagging.indicators.find((i) => i.id === "diesel"),
        "the diesel indicator",
      ).series_id,
    ).toBe("EMD_EPD2D_PTE_NUS_DPG");
    expect(lagging.diesel_fallback).toContain("Midwest (PADD 2)");
  });
});

describe("refusals", () => {
  test.each([
    [{ region: "EAST_COAST" }, "region", /must be one of NATIONAL/],
    [{ as_of: "1960-01-01" }, "as_of", /before the data starts/],
    [{ lane: "x" }, "lane", /not a known field/],
  ])("%o -> 400 on %s", (raw, field, problem) => {
    const error = refusalOf(() => analyse(raw));
    expect(error.status).toBe(400);
    expect(detailsOf(error)[0]).toMatchObject({ field, problem: expect.stringMatching(problem) });
  });

  test("an unknown region lists the allowed values", async () => {
    expect(
      defined(detailsOf(refusalOf(() => analyse({ region: "EAST_COAST" })))[0], "the refusal's detail").allowed,
    ).toEqual(DIESEL_REGION_NAMES);
  });
});
