import { describe, expect, test } from "bun:test";
import { resolvePlace, splitCityState } from "../../src/reference/geo/places.ts";

const resolved = (text: string) => {
  const result = resolvePlace(text);
  if (!result.ok) throw new Error(`${text} did not resolve: ${JSON.stringify(result)}`);
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
    ["Washington", "Washington, D.C.", "DC", "city_only"], // not Washington, UT
    ["NYC", "New York City", "NY", "exact"],
    ["LA", "Los Angeles", "CA", "exact"],
    ["Philly", "Philadelphia", "PA", "exact"],
    ["DC", "Washington, D.C.", "DC", "exact"],
    ["Chicago, IL, USA", "Chicago", "IL", "exact"],
    ["Columbia, SC, United States", "Columbia", "SC", "exact"],
    ["60601-4321", "Chicago", "IL", "zip"],
    ["Chicgo, IL", "Chicago", "IL", "fuzzy"],
    ["Sant Paul, MN", "Saint Paul", "MN", "fuzzy"],
    ["60601", "Chicago", "IL", "zip"],
    ["30303", "Atlanta", "GA", "zip"],
  ])("%s -> %s, %s (%s)", (text, city, state, quality) => {
    expect(resolved(text)).toMatchObject({ city, state, quality });
  });

  test("places carry coordinates and the PADD of their state", () => {
    expect(resolved("Los Angeles, CA")).toMatchObject({
      lat: expect.closeTo(34.05, 1),
      lon: expect.closeTo(-118.24, 1),
      padd: "5",
    });
    expect(resolved("Boston, MA").padd).toBe("1A");
    expect(resolved("Houston, TX").padd).toBe("3");
  });

  test("a near miss fails with the close real places; a name far from every place gets no nonsense suggestions", () => {
    expect(resolvePlace("Dallass Fort, TX")).toMatchObject({ ok: false, reason: "unresolved" });
    const near = resolvePlace("Chicgoo, IL");
    expect(near.ok === false && near.reason === "unresolved" && near.suggestions).toEqual(["Chicago, IL"]);
    expect(resolvePlace("Xyzzyville, TX")).toEqual({ ok: false, reason: "unresolved", suggestions: [] });
  });

  test("an unknown state is named as such, and only the same or a close name in a real state is suggested", () => {
    expect(resolvePlace("Nowhere, ZZ")).toEqual({
      ok: false,
      reason: "unresolved",
      suggestions: [],
      why: "'ZZ' is not a US state code",
    });
    expect(resolvePlace("Dallas, Texass")).toMatchObject({
      why: "'Texass' is not a US state",
      suggestions: expect.arrayContaining(["Dallas, TX"]),
    });
    expect(resolvePlace("Dalas, TZ")).toMatchObject({ suggestions: expect.arrayContaining(["Dallas, TX"]) });
  });

  test("a city in the wrong state suggests the same city elsewhere first", () => {
    const result = resolvePlace("Chicago, TX");
    expect(result).toEqual({ ok: false, reason: "unresolved", suggestions: expect.arrayContaining(["Chicago, IL"]) });
    expect(result.ok === false && result.reason === "unresolved" && result.suggestions[0]).toBe("Chicago, IL");
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

describe("places a truck cannot be priced to", () => {
  test.each([
    "Honolulu, HI",
    "Honolulu",
    "96813",
    "San Juan, PR",
    "Ponce, Puerto Rico",
    "00901",
    "Anchorage, AK",
    "99501",
    "Hagatna, Guam",
  ])("%s is not road-connected", (text) => {
    const result = resolvePlace(text);
    expect(result.ok === false && result.reason).toBe("not_road_connected");
  });

  test("a bare name shared by places of comparable size is ambiguous and lists them with their states", () => {
    expect(resolvePlace("Portland")).toEqual({
      ok: false,
      reason: "ambiguous",
      candidates: ["Portland, OR", "Portland, ME"],
    });
    const kansasCity = resolvePlace("Kansas City");
    expect(kansasCity.ok === false && kansasCity.reason === "ambiguous" && kansasCity.candidates).toEqual([
      "Kansas City, MO",
      "Kansas City, KS",
    ]);
    expect(resolved("Portland, ME")).toMatchObject({ city: "Portland", state: "ME", quality: "exact" });
  });

  test("a refusal never suggests a place no truck can reach", () => {
    const result = resolvePlace("Hilo Town, TX");
    expect(
      result.ok === false && result.reason === "unresolved" && result.suggestions.some((s) => s.endsWith(", HI")),
    ).toBe(false);
  });
});
