import { describe, expect, test } from "bun:test";
import { greatCircleMiles } from "../../../src/reference/geo/distance.ts";
import { parseRoadGeoJson } from "../../../src/reference/roads/geojson.ts";
import { buildRoadNetwork, type RoadLine } from "../../../src/reference/roads/network-build.ts";
import { RoadNetwork } from "../../../src/reference/roads/network.ts";
import { readOsmRoadLines } from "../../../src/reference/roads/osm.ts";
import { parseMaxspeedMph, roadSpeed, TRUCK_SPEED_MPH } from "../../../src/reference/roads/road-class.ts";
import { haveOsmium, osmExtract } from "../../support/osm-extract.ts";

// Two ways from West (-90, 35) to East (-88, 35): straight across (about 113 mi), or round by North (-89, 35.6),
// about 139 mi. Which one a truck takes depends on the roads' classes and speeds. The straight road runs on a few
// miles past both places, so that they are junctions of three roads.
const WEST: [number, number] = [-90, 35];
const NORTH: [number, number] = [-89, 35.6];
const EAST: [number, number] = [-88, 35];
const BEYOND_WEST: [number, number] = [-90.1, 35];
const BEYOND_EAST: [number, number] = [-87.9, 35];
const at = ([lon, lat]: [number, number]) => ({ lon, lat });
const STRAIGHT_MILES = greatCircleMiles(at(WEST), at(EAST));
const ROUND_MILES = greatCircleMiles(at(WEST), at(NORTH)) + greatCircleMiles(at(NORTH), at(EAST));

function feature(properties: Record<string, unknown>, coordinates: [number, number][]) {
  return { type: "Feature", properties, geometry: { type: "LineString", coordinates } };
}

/** The straight road with `straight` properties and the way round with `round`, as a GeoJSON file's text. */
function twoWays(straight: Record<string, unknown>, round: Record<string, unknown>): string {
  return JSON.stringify({
    type: "FeatureCollection",
    features: [feature(straight, [BEYOND_WEST, WEST, EAST, BEYOND_EAST]), feature(round, [WEST, NORTH, EAST])],
  });
}

/** Road miles of the route West to East on a network built from these lines. */
function routeMiles(lines: RoadLine[]): number {
  const network = new RoadNetwork(buildRoadNetwork(lines, "test", "0".repeat(64), "test"));
  return network.route(at(WEST), at(EAST)).networkMiles;
}

const takesStraight = (miles: number) => expect(miles).toBeCloseTo(STRAIGHT_MILES, 0);
const goesRound = (miles: number) => expect(miles).toBeCloseTo(ROUND_MILES, 0);

describe("road class and speed from a file's attributes", () => {
  test("OpenStreetMap maxspeed is km/h unless it says mph; no number is no limit", () => {
    expect(parseMaxspeedMph("55 mph")).toBe(55);
    expect(parseMaxspeedMph("100")).toBeCloseTo(62.14, 2);
    expect(parseMaxspeedMph("80 km/h")).toBeCloseTo(49.71, 2);
    expect(parseMaxspeedMph("none")).toBeUndefined();
    expect(parseMaxspeedMph("US:rural")).toBeUndefined();
  });

  test("OSM highway, TIGER MTFCC and Natural Earth type/class each give a class and its truck speed", () => {
    expect(roadSpeed({ highway: "motorway" })).toEqual({ roadClass: "motorway", speedMph: TRUCK_SPEED_MPH.motorway });
    expect(roadSpeed({ highway: "primary", maxspeed: "35 mph" })).toEqual({ roadClass: "primary", speedMph: 35 });
    expect(roadSpeed({ MTFCC: "S1100" }).roadClass).toBe("motorway");
    expect(roadSpeed({ MTFCC: "S1200" }).roadClass).toBe("primary");
    expect(roadSpeed({ MTFCC: "S1630" }).roadClass).toBe("ramp");
    expect(roadSpeed({ type: "Major Highway", class: "Interstate" }).roadClass).toBe("motorway");
    expect(roadSpeed({ type: "Major Highway", class: "Federal" }).roadClass).toBe("trunk");
    expect(roadSpeed({ type: "Secondary Highway", class: "State" }).roadClass).toBe("secondary");
    // A posted 80 mph is still a truck at its governed top speed.
    expect(roadSpeed({ highway: "motorway", maxspeed: "80 mph" }).speedMph).toBe(70);
    // Nothing said about the road: taken as the Interstate-grade road of the embedded network.
    expect(roadSpeed({ name: "somewhere" })).toEqual({ speedMph: TRUCK_SPEED_MPH.motorway });
  });
});

describe("routing minimises travel time; the miles are the chosen road's", () => {
  test("without classes the shorter road wins, as on the embedded network", () => {
    takesStraight(routeMiles(parseRoadGeoJson(twoWays({}, {}))));
  });

  test("OpenStreetMap tags: a motorway round beats a shorter secondary road; a posted limit overrides the class", () => {
    goesRound(routeMiles(parseRoadGeoJson(twoWays({ highway: "secondary" }, { highway: "motorway" }))));
    // The same straight road posted at 70 mph is now the quicker one.
    takesStraight(
      routeMiles(parseRoadGeoJson(twoWays({ highway: "secondary", maxspeed: "70 mph" }, { highway: "motorway" }))),
    );
    // A motorway slowed to 45 mph (km/h in the tag, as OSM writes it) loses to the motorway round.
    goesRound(routeMiles(parseRoadGeoJson(twoWays({ highway: "motorway", maxspeed: "72" }, { highway: "motorway" }))));
  });

  test("US Census TIGER: an S1100 primary road round beats a shorter S1200 secondary road", () => {
    goesRound(routeMiles(parseRoadGeoJson(twoWays({ MTFCC: "S1200" }, { MTFCC: "S1100" }))));
  });

  test("Natural Earth: an Interstate round beats a shorter state secondary highway", () => {
    goesRound(
      routeMiles(
        parseRoadGeoJson(
          twoWays({ type: "Secondary Highway", class: "State" }, { type: "Major Highway", class: "Interstate" }),
        ),
      ),
    );
  });

  test("a quicker road is taken only while it is quicker: the way round at primary speed loses", () => {
    takesStraight(routeMiles(parseRoadGeoJson(twoWays({ highway: "primary" }, { highway: "primary" }))));
  });

  test.skipIf(!haveOsmium)("an OpenStreetMap extract keeps highway and maxspeed through the PBF", async () => {
    const extract = (straight: { highway: string; maxspeed?: string }) =>
      osmExtract([
        { ...straight, points: [BEYOND_WEST, WEST, EAST, BEYOND_EAST] },
        { highway: "motorway", points: [WEST, NORTH, EAST] },
      ]);
    goesRound(routeMiles((await readOsmRoadLines(extract({ highway: "primary" }))).lines));
    takesStraight(routeMiles((await readOsmRoadLines(extract({ highway: "primary", maxspeed: "65 mph" }))).lines));
  });
});
