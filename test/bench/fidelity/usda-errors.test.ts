import { describe, expect, test } from "bun:test";
import { distanceBand, heldOutErrorAnalysis, type ScoredLaneWeek, signedError } from "./usda-errors.ts";
import { defined } from "../../support/defined.ts";

const lane = (district: string, destination: string, miles: number, cost: number): ScoredLaneWeek => ({
  week: "2026-07-21",
  district,
  destination,
  miles,
  low: 950,
  high: 1050,
  cost,
});

describe("the held-out USDA error analysis", () => {
  const lanes = [
    lane("GEORGIA", "Atlanta", 181, 1400),
    lane("GEORGIA", "Chicago", 893, 1300),
    lane("YAKIMA", "Seattle", 142, 1000),
    lane("YAKIMA", "Dallas", 2058, 850),
  ];

  test("the signed error is against the range's midpoint", () => {
    expect(signedError(defined(lanes[0], "lanes[0]"))).toBeCloseTo(0.4, 6);
    expect(signedError(defined(lanes[3], "lanes[3]"))).toBeCloseTo(-0.15, 6);
  });

  test("groups by district, destination, USDA band and week, counting each tail", () => {
    const text = heldOutErrorAnalysis(lanes, (district) => (district === "GEORGIA" ? "Tifton, GA" : district)).join(
      "\n",
    );
    expect(text).toContain("| all | 4 | 25 % | ");
    expect(text).toMatch(/\| from Tifton, GA \| 2 \| 0 % \| .* \| 2 \| 0 \|/);
    expect(text).toMatch(/\| from YAKIMA \| 2 \| 50 % \| .* \| 0 \| 1 \|/);
    expect(text).toContain(`| band ${distanceBand(181)} | 2 |`);
    expect(text).toContain("Over +10 %: 2 (Tifton, GA 2). Under -10 %: 1 (YAKIMA 1).");
  });
});
