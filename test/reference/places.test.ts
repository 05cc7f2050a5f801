import { describe, expect, test } from "bun:test";
import { resolvePlace, splitCityState } from "../../src/reference/places.ts";

const resolved = (text: string) => {
  const result = resolvePlace(text);
  if (!result.ok) throw new Error(`${text} did not resolve: ${result.suggestions.join("; ")}`);
  return result.place;
};

describe("forgiving place parsing", () => {
  test.each([
    ["Chicago, IL", "Chicago", "IL", "exact"],
    ["  chicago   il ", "Chicago", "IL", "exact"],
    ["CHICAGO, Illinois", "Chicago", "IL", "exact"],
    ["St. Louis, MO", "St. Louis", "MO", "exact"],
    ["Saint Louis Missouri", "St. Louis", "MO", "exact"],
    ["Ft Worth, TX", "Fort Worth", "TX", "exact"],
    ["New York, NY", "New York City", "NY", "exact"],
    ["Washington, DC", "Washington, D.C.", "DC", "exact"],
    ["Salt Lake City, UT", "Salt Lake City", "UT", "exact"],
    ["Dallas", "Dallas", "TX", "city_only"], // most populous Dallas, not Dallas GA
    ["Chicgo, IL", "Chicago", "IL", "fuzzy"],
    ["Sant Paul, MN", "Saint Paul", "MN", "fuzzy"],
    ["60601", "Chicago", "IL", "zip"],
    ["30303", "Atlanta", "GA", "zip"],
  ])("%s -> %s, %s (%s)", (text, city, state, quality) => {
    expect(resolved(text)).toMatchObject({ city, state, quality });
  });

  test("places carry coordinates and the PADD of their state", () => {
    expect(resolved("Los Angeles, CA")).toMatchObject({ lat: expect.closeTo(34.05, 1), lon: expect.closeTo(-118.24, 1), padd: "5" });
    expect(resolved("Boston, MA").padd).toBe("1A");
    expect(resolved("Houston, TX").padd).toBe("3");
  });

  test("a name that is too far from any place fails with the closest real places", () => {
    const result = resolvePlace("Xyzzyville, TX");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.suggestions.length).toBeGreaterThan(0);
  });

  test("a city in the wrong state suggests the same city elsewhere first", () => {
    const result = resolvePlace("Chicago, TX");
    expect(result).toEqual({ ok: false, suggestions: expect.arrayContaining(["Chicago, IL"]) });
    if (!result.ok) expect(result.suggestions[0]).toBe("Chicago, IL");
  });

  test("unknown ZIP codes do not resolve", () => {
    expect(resolvePlace("00000").ok).toBe(false);
  });

  test("state can be a code or a multi-word name, with or without a comma", () => {
    expect(splitCityState("Raleigh North Carolina")).toEqual({ city: "raleigh", state: "NC" });
    expect(splitCityState("Kansas City MO")).toEqual({ city: "kansas city", state: "MO" });
    expect(splitCityState("Kansas City")).toEqual({ city: "kansas city" });
  });
});
