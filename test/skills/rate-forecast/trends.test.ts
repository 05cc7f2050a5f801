import { expect, test } from "bun:test";
import type { Observation } from "../../../src/reference/storage/view.ts";
import { type CostTrend, projectedScale } from "../../../src/skills/rate-forecast/trends.ts";

const observation = (observedOn: string, publishedOn: string, value: number): Observation =>
  ({ seriesId: "TEST", observedOn, publishedOn, value }) as Observation;

const wage: CostTrend = {
  annualRate: 0.05,
  from: observation("2023-05-01", "2024-04-03", 26),
  to: observation("2024-05-01", "2025-04-02", 27.3),
};
const equipment: CostTrend = {
  annualRate: 0.12,
  from: observation("2024-05-01", "2024-06-14", 100),
  to: observation("2025-05-01", "2025-06-13", 112),
};

test("a wage edition a year away leaves the wage where it is; the next one moves it by a year of its trend", () => {
  expect(projectedScale({ wage }, "2025-06-30", "2025-07-28").wage).toBe(1);
  expect(projectedScale({ wage }, "2025-06-30", "2026-04-06").wage).toBeCloseTo(1.05, 12);
});

test("the PPI moves a month of its trend for each monthly release due within the horizon", () => {
  expect(projectedScale({ equipment }, "2025-06-30", "2025-07-07").equipment).toBe(1);
  expect(projectedScale({ equipment }, "2025-06-30", "2025-08-20").equipment).toBeCloseTo(1.12 ** (2 / 12), 12);
});

test("a release overdue at the origin is not counted as due within the horizon", () => {
  expect(projectedScale({ wage }, "2027-01-04", "2027-02-01").wage).toBe(1);
});

test("a line without a trend is held", () => {
  expect(projectedScale({}, "2025-06-30", "2026-06-29")).toEqual({ wage: 1, equipment: 1 });
});
