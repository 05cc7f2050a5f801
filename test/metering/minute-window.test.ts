import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { MINUTE_MS, MinuteWindows } from "../../src/metering/minute-window.ts";

const START = Date.parse("2026-07-01T08:00:00Z");

/** Calls at increasing instants: gaps from bursts (0 ms) to long pauses, around the 60 s edge too. */
const gapsArbitrary = fc.array(
  fc.oneof(
    fc.constant(0),
    fc.integer({ min: 0, max: 400 }),
    fc.integer({ min: 0, max: 25_000 }),
    fc.integer({ min: 59_990, max: 60_010 }),
  ),
  { minLength: 1, maxLength: 80 },
);

describe("MinuteWindows is an exact sliding minute", () => {
  test("never more than `limit` admitted calls in any rolling 60 s, and never a refusal while fewer were admitted", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), gapsArbitrary, (limit, gaps) => {
        const windows = new MinuteWindows();
        const admitted: number[] = [];
        let now = START;
        for (const gap of gaps) {
          now += gap;
          const inLastMinute = admitted.filter((at) => at > now - MINUTE_MS).length;
          const { admitted: ok } = windows.tryCount("key", limit, now);
          expect(ok).toBe(inLastMinute < limit);
          if (ok) admitted.push(now);
        }
        // every window [t, t + 60 s) that starts at an admitted call holds at most `limit` of them
        for (const start of admitted) {
          expect(admitted.filter((at) => at >= start && at < start + MINUTE_MS).length).toBeLessThanOrEqual(limit);
        }
      }),
      { numRuns: 1000 },
    );
  });

  test("resetAt is the exact millisecond at which remaining goes up", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 7 }),
        gapsArbitrary,
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
          expect(resetAt - now).toBeLessThanOrEqual(MINUTE_MS);
          if (remaining === limit) return; // nothing used: 60 s from now
          if (resetAt - 1 > now) expect(windows.status("key", limit, resetAt - 1).remaining).toBe(remaining);
          expect(windows.status("key", limit, resetAt).remaining).toBeGreaterThan(remaining);
        },
      ),
      { numRuns: 500 },
    );
  });

  test("an explorer key (3 a minute) gets 3 calls in 55 s, not 5, and the 4th exactly 60 s after the 1st", () => {
    const windows = new MinuteWindows();
    const at = (s: number) => START + s * 1000;
    expect([0, 20, 40, 50, 55].map((s) => windows.tryCount("key", 3, at(s)).admitted)).toEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(windows.tryCount("key", 3, at(60) - 1).admitted).toBe(false);
    expect(windows.tryCount("key", 3, at(60)).admitted).toBe(true);
  });

  test("a clock that steps back frees nothing early", () => {
    const windows = new MinuteWindows();
    windows.tryCount("key", 2, START + 30_000);
    windows.tryCount("key", 2, START);
    expect(windows.tryCount("key", 2, START + 89_999).admitted).toBe(false);
    expect(windows.tryCount("key", 2, START + 90_000).admitted).toBe(true);
  });

  test("looking ahead changes nothing", () => {
    const windows = new MinuteWindows();
    windows.tryCount("key", 2, START);
    windows.tryCount("key", 2, START + 1);
    windows.status("key", 2, START + 5 * MINUTE_MS);
    expect(windows.tryCount("key", 2, START + 2).admitted).toBe(false);
  });

  test("idle keys are swept once their newest call is a minute old", () => {
    const windows = new MinuteWindows();
    windows.tryCount("idle", 1, START);
    windows.tryCount("busy", 1, START);
    expect(windows.size).toBe(2);
    windows.tryCount("busy", 1, START + 2 * MINUTE_MS);
    expect(windows.size).toBe(1);
  });
});
