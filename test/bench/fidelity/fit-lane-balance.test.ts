import { describe, expect, test } from "bun:test";
import { fitLaneBalance, type LaneWeekError } from "./fit-lane-balance.ts";
import { defined } from "../../support/defined.ts";

// Lane-weeks built from planted effects: the fit must give them back, whatever the week's level.
const inbound = { CALIFORNIA: Math.log(0.7), NORTHEAST: Math.log(1.05), PACIFIC_NORTHWEST: Math.log(1.25) } as const;
const outbound = { SOUTHEAST: Math.log(1.2), TEXAS: Math.log(1.0), MOUNTAIN: Math.log(0.75) } as const;
const weeks = { "2026-04-29": -0.15, "2026-06-30": 0.05, "2026-07-07": 0 } as const;

function planted(): LaneWeekError[] {
  const rows: LaneWeekError[] = [];
  for (const [week, level] of Object.entries(weeks)) {
    for (const [originMarket, out] of Object.entries(outbound)) {
      for (const [destinationMarket, into] of Object.entries(inbound)) {
        rows.push({
          week,
          origin: originMarket,
          destination: destinationMarket,
          logError: level + out + into,
        });
      }
    }
  }
  return rows;
}

describe("the lane-balance fit (median polish)", () => {
  const fitted = fitLaneBalance(planted());

  test("recovers each market's multiplier relative to the others; the week's level is not part of it", () => {
    expect(
      defined(fitted.inbound.PACIFIC_NORTHWEST, "fitted.inbound.PACIFIC_NORTHWEST") /
        defined(fitted.inbound.CALIFORNIA, "fitted.inbound.CALIFORNIA"),
    ).toBeCloseTo(1.25 / 0.7, 1);
    expect(
      defined(fitted.inbound.NORTHEAST, "fitted.inbound.NORTHEAST") /
        defined(fitted.inbound.CALIFORNIA, "fitted.inbound.CALIFORNIA"),
    ).toBeCloseTo(1.05 / 0.7, 1);
    expect(
      defined(fitted.outbound.SOUTHEAST, "fitted.outbound.SOUTHEAST") /
        defined(fitted.outbound.MOUNTAIN, "fitted.outbound.MOUNTAIN"),
    ).toBeCloseTo(1.2 / 0.75, 1);
    expect(
      defined(fitted.weeks["2026-06-30"], 'fitted.weeks["2026-06-30"]') -
        defined(fitted.weeks["2026-04-29"], 'fitted.weeks["2026-04-29"]'),
    ).toBeCloseTo(0.2, 3);
  });

  test("the multipliers average 1 in logs over the lane-weeks they were fitted on: the level is kept apart", () => {
    const rows = planted();
    const meanLog =
      rows.reduce(
        (sum, row) =>
          sum +
          Math.log(
            defined(fitted.outbound[defined(row.origin, "row.origin")], "fitted.outbound[row.origin]") *
              defined(fitted.inbound[defined(row.destination, "row.destination")], "fitted.inbound[row.destination]"),
          ),
        0,
      ) / rows.length;
    expect(Math.abs(meanLog)).toBeLessThan(0.01);
  });

  test("the level carries what every lane shares: level x outbound x inbound gives back a median week's lanes", () => {
    const premium = 0.3;
    const rows = planted().map((row) => ({ ...row, logError: row.logError + premium }));
    const refit = fitLaneBalance(rows);
    for (const row of rows.filter((r) => r.week === "2026-07-07")) {
      const factor =
        refit.level *
        defined(refit.outbound[defined(row.origin, "row.origin")], "outbound") *
        defined(refit.inbound[defined(row.destination, "row.destination")], "inbound");
      expect(Math.log(factor)).toBeCloseTo(row.logError, 1);
    }
    expect(refit.level).toBeGreaterThan(fitted.level);
  });

  test("a market seen in fewer than 6 lane-weeks gets no figure", () => {
    const rows = [
      ...planted(),
      ...Array.from({ length: 5 }, () => ({
        week: "2026-06-30",
        origin: "TEXAS",
        destination: "FLORIDA",
        logError: 0.4,
      })),
    ];
    const refit = fitLaneBalance(rows);
    expect(refit.lanesPerMarket.inbound.FLORIDA).toBe(5);
    expect(refit.inbound.FLORIDA).toBeUndefined();
    expect(refit.inbound.CALIFORNIA).toBeDefined();
  });
});
