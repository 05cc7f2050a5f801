import { expect, test } from "bun:test";
import { resolvePlace, type ResolvedPlace } from "../../../src/reference/geo/places.ts";
import { embeddedRoadNetwork, RoadNetwork, roadMiles } from "../../../src/reference/roads/index.ts";
import { parseRoadGeoJson } from "../../../src/reference/roads/geojson.ts";
import { buildRoadNetwork } from "../../../src/reference/roads/network-build.ts";
import { cachedPlaceResolution, cachedRoadMiles } from "../../../src/skills/rate-lookup/lane-cache.ts";
import { CORRIDOR_ROADS } from "../../support/road-corridor.ts";
import { defined } from "../../support/defined.ts";

const place = (text: string): ResolvedPlace => {
  const resolution = resolvePlace(text);
  if (!resolution.ok) throw new Error(`${text} did not resolve`);
  return resolution.place;
};

const LANE_NAMES: [from: string, to: string][] = [
  ["Chicago, IL", "Dallas, TX"],
  ["Dallas, TX", "Chicago, IL"],
  ["Los Angeles, CA", "Seattle, WA"],
  ["Atlanta, GA", "Miami, FL"],
  ["Denver, CO", "Boston, MA"],
  ["Key West, FL", "Orlando, FL"],
];
const LANES = LANE_NAMES.map(([from, to]) => [place(from), place(to)] as const);

test("a remembered lane has exactly the miles the network routes, in both directions and off the network too", () => {
  const network = embeddedRoadNetwork();
  for (const [from, to] of LANES) {
    const first = cachedRoadMiles(network, from, to);
    expect(first).toEqual(roadMiles(network, from, to));
    // Asked again, the lane is not routed again: the very same answer comes back.
    expect(cachedRoadMiles(network, from, to)).toBe(first);
  }
  expect(LANES.map(([from, to]) => cachedRoadMiles(network, from, to).method)).toContain("OFF_NETWORK");
});

test("each network keeps its own lanes: an imported network does not answer with the embedded one's miles", () => {
  const corridor = new RoadNetwork(
    buildRoadNetwork(parseRoadGeoJson(JSON.stringify(CORRIDOR_ROADS)), "imported", "0".repeat(64), "test corridor"),
  );
  const [from, to] = defined(LANES[0], "the first lane");
  const embedded = cachedRoadMiles(embeddedRoadNetwork(), from, to);
  const imported = cachedRoadMiles(corridor, from, to);
  expect(imported).toEqual(roadMiles(corridor, from, to));
  expect(imported).not.toEqual(embedded);
});

test("a remembered answer cannot be changed by whoever reads it", () => {
  const [from, to] = defined(LANES[0], "the first lane");
  const miles = cachedRoadMiles(embeddedRoadNetwork(), from, to);
  expect(Object.isFrozen(miles)).toBe(true);
  if (miles.method === "ROAD_NETWORK") expect(Object.isFrozen(miles.connectorMiles)).toBe(true);
});

test("a remembered place text resolves exactly as the gazetteer does, refusals included, and cannot be changed", () => {
  for (const text of [
    "Chicago, IL",
    "chicago il",
    "Springfield",
    "Chicgo, IL",
    "Nowhereville, ZZ",
    "Honolulu, HI",
    "60601",
  ]) {
    const first = cachedPlaceResolution(text);
    expect(first).toEqual(resolvePlace(text));
    expect(cachedPlaceResolution(text)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  }
  // A long text is resolved every time rather than kept.
  const long = `Chicago, IL${" ".repeat(200)}`;
  expect(cachedPlaceResolution(long)).toEqual(resolvePlace(long));
  expect(cachedPlaceResolution(long)).not.toBe(cachedPlaceResolution(long));
});
