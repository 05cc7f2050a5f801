import { describe, expect, test } from "bun:test";
import { groupsOfRow, windowOfGroups } from "../../src/metering/minute-groups.ts";
import { MINUTE_MS } from "../../src/metering/minute-window.ts";

const NOW = Date.parse("2026-03-10T12:00:00Z");

describe("the minute of a key's groups (PostgreSQL's row)", () => {
  test("with nothing used, the whole limit is left and the reset is a minute away", () => {
    expect(windowOfGroups([], 100, NOW)).toEqual({
      window: "minute",
      limit: 100,
      remaining: 100,
      resetAt: NOW + MINUTE_MS,
    });
  });

  test("a group counts whole while its newest call is inside the minute, then not at all", () => {
    const groups = [
      { at: NOW + 900, calls: 60 },
      { at: NOW + 1500, calls: 30 },
    ];
    expect(windowOfGroups(groups, 100, NOW + MINUTE_MS + 899)).toMatchObject({
      remaining: 10,
      resetAt: NOW + MINUTE_MS + 900,
    });
    expect(windowOfGroups(groups, 100, NOW + MINUTE_MS + 900)).toMatchObject({
      remaining: 70,
      resetAt: NOW + MINUTE_MS + 1500,
    });
  });

  test("when the minute is full, the reset is when enough groups have left for one more call", () => {
    const groups = [
      { at: NOW + 100, calls: 2 },
      { at: NOW + 2000, calls: 5 },
      { at: NOW + 3000, calls: 3 },
    ];
    // A limit lowered to 4 with 10 calls inside: the first two groups must leave (3 left < 4).
    expect(windowOfGroups(groups, 4, NOW + 5000)).toEqual({
      window: "minute",
      limit: 4,
      remaining: 0,
      resetAt: NOW + 2000 + MINUTE_MS,
    });
    expect(windowOfGroups(groups, 10, NOW + 5000)).toMatchObject({ remaining: 0, resetAt: NOW + 100 + MINUTE_MS });
  });

  test("the row's arrays become groups; an instant without a count is one call", () => {
    expect(groupsOfRow(["1000", "2000"], [3])).toEqual([
      { at: 1000, calls: 3 },
      { at: 2000, calls: 1 },
    ]);
    expect(groupsOfRow(null, null)).toEqual([]);
  });
});
