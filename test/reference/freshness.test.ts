import { describe, expect, test } from "bun:test";
import { staleness, stalenessPenalty } from "../../src/reference/series/freshness.ts";
import { NATIONAL_TRUCK_DRIVER_WAGE_SERIES } from "../../src/reference/series/series-ids.ts";

const DIESEL = "EMD_EPD2D_PTE_R30_DPG";

describe("a figure is stale by how many of its own releases are missing", () => {
  test("weekly diesel: the week's figure is not stale until the next week's is due, then one release per week", () => {
    expect(staleness(DIESEL, "2026-11-16", "2026-11-23")).toBeUndefined();
    const oneBehind = staleness(DIESEL, "2026-11-09", "2026-11-23");
    expect(oneBehind).toMatchObject({ cadence: "weekly", missed: 1 });
    const twoMonths = staleness(DIESEL, "2026-09-21", "2026-11-23");
    expect(twoMonths?.missed).toBeGreaterThanOrEqual(8);
    expect(stalenessPenalty("diesel price for Gulf Coast (PADD 3)", twoMonths ?? fail())).toEqual({
      amount: 0.3,
      reason: expect.stringMatching(
        /^diesel price for Gulf Coast \(PADD 3\) \(2026-09-21\) is \d+ weekly releases behind: the next was due 2026-09-\d\d$/,
      ),
    });
    expect(stalenessPenalty("diesel", oneBehind ?? fail()).amount).toBe(0.05);
  });

  test("an annual survey whose newest edition is out is not stale, however old its reference date", () => {
    // OEWS May 2024 was released 2025-04-02; May 2025 is expected from April 2026.
    expect(staleness(NATIONAL_TRUCK_DRIVER_WAGE_SERIES, "2024-05-01", "2026-03-01")).toBeUndefined();
    const behind = staleness(NATIONAL_TRUCK_DRIVER_WAGE_SERIES, "2024-05-01", "2026-11-23");
    expect(behind).toMatchObject({ cadence: "annual", missed: 1 });
    expect(stalenessPenalty("driver wage survey", behind ?? fail()).reason).toMatch(
      /^driver wage survey \(2024-05-01\) is 1 annual release behind: the next was due 2026-/,
    );
  });

  test("a series with no regular cycle is never stale", () => {
    expect(staleness("NOT_A_SERIES", "2020-01-01", "2026-11-23")).toBeUndefined();
  });
});

function fail(): never {
  throw new Error("expected a staleness");
}
