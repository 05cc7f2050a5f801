import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { MINUTE_MS, MinuteWindows } from "../../src/metering/minute-window.ts";

const START = Date.parse("2026-07-01T08:00:00Z");

describe("MinuteWindows.status().resetAt", () => {
  test("is the exact millisecond at which remaining goes up, whatever calls came before", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 7 }),
        fc.array(fc.oneof(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 25_000 })), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 90_000 }),
        (limit, gaps, lookAfter) => {
          const windows = new MinuteWindows();
          let now = START;
          for (const gap of gaps) {
            now += gap;
            windows.tryCount("key", limit, now);
          }
          now += lookAfter;
          const { remaining, resetAt } = windows.status("key", limit, now);
          expect(resetAt).toBeGreaterThan(now);
          expect(resetAt - now).toBeLessThanOrEqual(2 * MINUTE_MS);
          if (remaining === limit) return; // nothing used: resetAt is the end of the cell
          if (resetAt - 1 > now) expect(windows.status("key", limit, resetAt - 1).remaining).toBe(remaining);
          expect(windows.status("key", limit, resetAt).remaining).toBeGreaterThan(remaining);
        },
      ),
      { numRuns: 500 },
    );
  });

  test("looking ahead changes nothing", () => {
    const windows = new MinuteWindows();
    windows.tryCount("key", 2, START);
    windows.tryCount("key", 2, START + 1);
    windows.status("key", 2, START + 5 * MINUTE_MS);
    expect(windows.tryCount("key", 2, START + 2).admitted).toBe(false);
  });

  test("idle keys are swept once their cells are empty", () => {
    const windows = new MinuteWindows();
    windows.tryCount("idle", 1, START);
    windows.tryCount("busy", 1, START);
    expect(windows.size).toBe(2);
    windows.tryCount("busy", 1, START + 2 * MINUTE_MS);
    expect(windows.size).toBe(1);
  });
});
