import { describe, expect, test } from "bun:test";
import { DEFAULT_LIMITS, LimitsError, parseLimits } from "../../src/metering/limits.ts";

describe("limits table", () => {
  test("the default is the contract's table (docs/api.md)", () => {
    expect(DEFAULT_LIMITS).toEqual({
      explorer: { perMinute: 3, perMonth: 25 },
      starter: { perMinute: 20, perMonth: 2000 },
      professional: { perMinute: 60, perMonth: 10000 },
      enterprise: { perMinute: 200, perMonth: 50000 },
    });
  });

  test("an override replaces the fields it names and merges per tier", () => {
    const limits = parseLimits('{"enterprise":{"per_minute":1000,"per_month":500000},"explorer":{"per_month":100}}');
    expect(limits.enterprise).toEqual({ perMinute: 1000, perMonth: 500000 });
    expect(limits.explorer).toEqual({ perMinute: 3, perMonth: 100 });
    expect(limits.starter).toEqual(DEFAULT_LIMITS.starter);
    expect(DEFAULT_LIMITS.explorer.perMonth).toBe(25);
  });

  test.each([
    ["not json", /not valid JSON/],
    ["[1,2]", /must be a JSON object keyed by tier/],
    ['{"gold":{"per_minute":5}}', /unknown tier "gold"/],
    ['{"starter":5}', /limits\.starter must be an object/],
    ['{"starter":{"per_hour":5}}', /unknown field "per_hour" in limits\.starter/],
    ['{"starter":{"per_minute":0}}', /limits\.starter\.per_minute must be a positive integer, not 0/],
    ['{"starter":{"per_month":-3}}', /must be a positive integer, not -3/],
    ['{"starter":{"per_month":2.5}}', /must be a positive integer, not 2\.5/],
    ['{"starter":{"per_month":"100"}}', /must be a positive integer, not "100"/],
  ])("%s is refused with a one-line message", (json, message) => {
    let caught: unknown;
    try {
      parseLimits(json);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(LimitsError);
    expect((caught as Error).message).toMatch(message);
    expect((caught as Error).message).not.toContain("\n");
  });
});
