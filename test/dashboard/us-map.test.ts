import { describe, expect, test } from "bun:test";
import { feature } from "topojson-client";
import statesAlbers from "us-atlas/states-albers-10m.json" with { type: "json" };
import { projectAlbers, routeData, stateBorders } from "../../src/dashboard/lane/us-map.ts";

type Ring = number[][];
/** Even-odd rule over every ring of a state's (projected) outline. */
function inside([x, y]: [number, number], rings: Ring[]): boolean {
  let odd = false;
  for (const ring of rings)
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi = 0, yi = 0] = ring[i] ?? [];
      const [xj = 0, yj = 0] = ring[j] ?? [];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) odd = !odd;
    }
  return odd;
}

function ringsOf(name: string): Ring[] {
  const topology = statesAlbers as unknown as Parameters<typeof feature>[0];
  const states = feature(topology, topology.objects.states as Parameters<typeof feature>[1]) as unknown as {
    features: { properties: { name: string }; geometry: { type: string; coordinates: unknown } }[];
  };
  const state = states.features.find((candidate) => candidate.properties.name === name);
  if (!state) throw new Error(`no state ${name}`);
  const coordinates = state.geometry.coordinates as Ring[] | Ring[][];
  return state.geometry.type === "Polygon" ? (coordinates as Ring[]) : (coordinates as Ring[][]).flat();
}

describe("the server-drawn map of the lower 48", () => {
  test("a city projects inside its own state's us-atlas outline, and not inside a neighbour's", () => {
    const cities = [
      { name: "Illinois", lat: 41.88, lon: -87.63, not: "Indiana" },
      { name: "Texas", lat: 32.78, lon: -96.8, not: "Oklahoma" },
      { name: "Washington", lat: 47.61, lon: -122.33, not: "Oregon" },
      { name: "Florida", lat: 25.76, lon: -80.19, not: "Georgia" },
      { name: "Maine", lat: 43.66, lon: -70.26, not: "New Hampshire" },
    ];
    for (const city of cities) {
      const point = projectAlbers(city);
      expect({ city: city.name, inside: inside(point, ringsOf(city.name)) }).toEqual({ city: city.name, inside: true });
      expect(inside(point, ringsOf(city.not))).toBe(false);
    }
  });

  test("the outlines leave out the Alaska and Hawaii insets and stay small", () => {
    const d = stateBorders();
    const points = [...d.matchAll(/[ML](-?\d+) (-?\d+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(points.length).toBeGreaterThan(1000);
    // The insets sit in the bottom-left corner of the Albers USA frame (x < 300, y > 450).
    expect(points.some(([x = 0, y = 0]) => x < 300 && y > 470)).toBe(false);
    expect(d.length).toBeLessThan(150_000);
  });

  test("a route is one path from the first point to the last", () => {
    const d = routeData([
      { lat: 41.88, lon: -87.63 },
      { lat: 38.63, lon: -90.2 },
      { lat: 32.78, lon: -96.8 },
    ]);
    expect(d.startsWith("M")).toBe(true);
    expect(d.match(/L/g)).toHaveLength(2);
  });
});
