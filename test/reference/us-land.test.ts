import { describe, expect, test } from "bun:test";
import { longestOffLandMiles, onUsLand } from "../../src/reference/geo/us-land.ts";

describe("US land", () => {
  test("cities are on land; lakes, the sea and Canada are not", () => {
    expect(onUsLand({ lat: 41.5, lon: -81.69 })).toBe(true); // Cleveland
    expect(onUsLand({ lat: 39, lon: -116.5 })).toBe(true); // the Nevada desert
    expect(onUsLand({ lat: 41.9, lon: -81.9 })).toBe(false); // Lake Erie
    expect(onUsLand({ lat: 43, lon: -87 })).toBe(false); // Lake Michigan
    expect(onUsLand({ lat: 28, lon: -88 })).toBe(false); // the Gulf of Mexico
    expect(onUsLand({ lat: 42.8, lon: -81.5 })).toBe(false); // Ontario
  });

  test("the longest stretch of a straight line off land", () => {
    // Milwaukee to Grand Rapids crosses Lake Michigan (about 80 mi of water); Chicago to Indianapolis stays on land.
    expect(longestOffLandMiles({ lat: 43.04, lon: -87.91 }, { lat: 42.96, lon: -85.67 })).toBeGreaterThan(60);
    expect(longestOffLandMiles({ lat: 41.85, lon: -87.65 }, { lat: 39.77, lon: -86.16 })).toBe(0);
  });
});
