import { expect, test } from "bun:test";
import { marketLevelBefore, type ReportLane, reeferRateIndex } from "./usda-market-level.ts";

const BASE = ["2026-06-30", "2026-07-07"];
const lane = (week: string, district: string, destination: string, mid: number): ReportLane => ({
  week,
  district,
  destination,
  low: mid - 100,
  high: mid + 100,
});

// Two base weeks at one level, then the market rises 10 % for every lane, then 20 %.
const reports: ReportLane[] = [
  ...BASE.flatMap((week) => [
    lane(week, "GEORGIA", "Atlanta", 2000),
    lane(week, "YAKIMA", "Seattle", 1000),
    lane(week, "KERN", "Chicago", 6000),
  ]),
  lane("2026-07-14", "GEORGIA", "Atlanta", 2200),
  lane("2026-07-14", "YAKIMA", "Seattle", 1100),
  lane("2026-07-14", "KERN", "Chicago", 6600),
  lane("2026-07-14", "OXNARD", "Boston", 9000), // no base: has no say
  lane("2026-07-21", "GEORGIA", "Atlanta", 2400),
  lane("2026-07-21", "YAKIMA", "Seattle", 1200),
];

test("the index is the median lane's midpoint over its own base-week midpoint; a lane without a base has no say", () => {
  const index = reeferRateIndex(reports, BASE);
  expect(index.get("2026-06-30")).toBeCloseTo(1, 6);
  expect(index.get("2026-07-14")).toBeCloseTo(1.1, 6);
  expect(index.get("2026-07-21")).toBeCloseTo(1.2, 6);
});

test("a week's level reads only the reports before it, relative to the base weeks", () => {
  expect(marketLevelBefore("2026-07-21", reports, BASE)).toEqual({
    report: "2026-07-14",
    factor: expect.closeTo(1.1, 6),
  });
  expect(marketLevelBefore("2026-07-28", reports, BASE)?.report).toBe("2026-07-21");
  // Nothing before the base is complete: no level.
  expect(marketLevelBefore("2026-07-07", reports, BASE)).toBeUndefined();
});
