import { describe, expect, test } from "bun:test";
import { greatCircleMiles } from "../../../src/reference/distance.ts";
import { parseRoadGeoJson, RoadFileError } from "../../../src/reference/roads/geojson.ts";
import { buildRoadNetwork, type RoadLine } from "../../../src/reference/roads/network-build.ts";
import { RoadNetwork } from "../../../src/reference/roads/network.ts";
import { roadMiles } from "../../../src/reference/roads/road-miles.ts";

const build = (lines: RoadLine[]) => buildRoadNetwork(lines, "test", "0".repeat(64), "hand-drawn test roads");
const network = (lines: RoadLine[]) => new RoadNetwork(build(lines));
const at = (lon: number, lat: number) => ({ lon, lat });
const miles = (a: [number, number], b: [number, number]) => greatCircleMiles(at(...a), at(...b));

describe("building a network from drawn lines", () => {
  test("two roads that cross without a shared point meet at a junction there", () => {
    const net = network([
      {
        coordinates: [
          [-101, 40],
          [-99, 40],
        ],
      },
      {
        coordinates: [
          [-100, 39],
          [-100, 41],
        ],
      },
    ]);
    const viaCrossing = miles([-101, 40], [-100, 40]) + miles([-100, 40], [-100, 41]);
    // Within 1 %: the crossing is found on the drawn (projected) chords, a fraction of a mile from the true corner.
    expect(Math.abs(net.route(at(-101, 40), at(-100, 41)).networkMiles / viaCrossing - 1)).toBeLessThan(0.01);
  });

  test("a small gap in the drawing is bridged; a road ending short of another joins it", () => {
    const gap = network([
      {
        coordinates: [
          [-101, 40],
          [-100.05, 40],
        ],
      },
      {
        coordinates: [
          [-99.95, 40],
          [-99, 40],
        ],
      },
    ]);
    expect(gap.route(at(-101, 40), at(-99, 40)).networkMiles).toBeCloseTo(miles([-101, 40], [-99, 40]), 0);

    const short = network([
      {
        coordinates: [
          [-101, 40],
          [-99, 40],
        ],
      },
      {
        coordinates: [
          [-100, 40.01],
          [-100, 41],
        ],
      }, // stops 0.7 mi short of the first road
    ]);
    expect(short.route(at(-101, 40), at(-100, 41)).networkMiles).toBeLessThan(miles([-101, 40], [-100, 40]) + miles([-100, 40], [-100, 41]) + 2);
  });

  test("two carriageways ending side by side short of a road join that road, not each other", () => {
    // A divided highway drawn as two lines 0.14 mi apart, joined at its far end, both stopping 0.7 mi short of a
    // crossing road (I-55 at LaPlace): the nearest line to each loose end is its twin, but the twin is not a way on.
    const road = (...coordinates: [number, number][]): RoadLine => ({ coordinates });
    const net = network([road([-101, 40], [-99, 40]), road([-100, 40.01], [-100, 41]), road([-100, 41], [-99.9973, 40.9], [-99.9973, 40.01])]);
    const route = net.route(at(-101, 40), at(-100, 41));
    // Both places on the network (neither piece dropped as an island), joined at the end, not round the far end.
    expect(route.origin.offsetMiles + route.destination.offsetMiles).toBeLessThan(0.1);
    expect(route.networkMiles).toBeLessThan(miles([-101, 40], [-100, 40]) + miles([-100, 40], [-100, 41]) + 2);
  });

  test("a network built under other rules has another version", () => {
    expect(
      build([
        {
          coordinates: [
            [-101, 40],
            [-99, 40],
          ],
        },
      ]).version,
    ).toMatch(/^test-r\d+-000000000000$/);
  });

  test("chains of points become one edge between junctions, keeping their length", () => {
    const coordinates: [number, number][] = Array.from({ length: 11 }, (_, i) => [-101 + i * 0.2, 40 + (i % 2) * 0.05]);
    const file = build([{ coordinates }]);
    expect(file.stats).toMatchObject({ junctions: 2, edges: 1 });
    let drawn = 0;
    for (let i = 1; i < coordinates.length; i++) drawn += miles(coordinates[i - 1]!, coordinates[i]!);
    expect(new RoadNetwork(file).route(at(-101, 40), at(-99, 40)).networkMiles).toBeCloseTo(drawn, 0);
  });

  test("a line's stated real length scales its drawn miles, within bounds", () => {
    const drawn = miles([-101, 40], [-99, 40]);
    const longer = network([
      {
        coordinates: [
          [-101, 40],
          [-99, 40],
        ],
        lengthMiles: drawn * 1.05,
      },
    ]);
    expect(longer.route(at(-101, 40), at(-99, 40)).networkMiles).toBeCloseTo(drawn * 1.05, 0);
    const absurd = network([
      {
        coordinates: [
          [-101, 40],
          [-99, 40],
        ],
        lengthMiles: drawn * 5,
      },
    ]);
    expect(absurd.route(at(-101, 40), at(-99, 40)).networkMiles).toBeCloseTo(drawn * 1.1, 0);
  });

  test("only the largest connected piece is kept", () => {
    const file = build([
      {
        coordinates: [
          [-101, 40],
          [-99, 40],
        ],
      },
      {
        coordinates: [
          [-80, 30],
          [-79.9, 30],
        ],
      }, // far away: an island
    ]);
    expect(file.stats.droppedComponents).toBe(1);
    expect(file.stats.edges).toBe(1);
  });
});

describe("road miles between places", () => {
  // A U-shaped road: the two tips are 69 mi apart as the crow flies, 2 x 138 + 53 mi by the road.
  const uShape = network([
    {
      coordinates: [
        [-101, 41],
        [-101, 39],
        [-100, 39],
        [-100, 41],
      ],
    },
  ]);

  test("places beside the road route along it, with local legs to it", () => {
    const result = roadMiles(uShape, at(-101.02, 40.5), at(-100.02, 39.1));
    expect(result.method).toBe("ROAD_NETWORK");
    if (result.method !== "ROAD_NETWORK") return;
    expect(result.connectorMiles.origin).toBeGreaterThan(0.5);
    expect(result.miles).toBeCloseTo(result.networkMiles + result.connectorMiles.origin + result.connectorMiles.destination, 6);
  });

  test("an implausible detour is refused with the ratio, and a place far from the network is off it", () => {
    const detour = roadMiles(uShape, at(-101, 41), at(-100, 41));
    expect(detour).toMatchObject({ method: "OFF_NETWORK", reason: expect.stringMatching(/x the straight-line distance/) });
    const far = roadMiles(uShape, at(-95, 40), at(-100, 40));
    expect(far).toMatchObject({ method: "OFF_NETWORK", reason: expect.stringMatching(/^origin is \d+ mi from the nearest Interstate/) });
  });
});

describe("reading GeoJSON road files", () => {
  const collection = (features: unknown[]) => JSON.stringify({ type: "FeatureCollection", features });

  test("LineStrings and MultiLineStrings, with a stated length when there is one", () => {
    const lines = parseRoadGeoJson(
      collection([
        {
          type: "Feature",
          properties: { length: 12.5 },
          geometry: {
            type: "LineString",
            coordinates: [
              [-100, 40],
              [-99.9, 40],
            ],
          },
        },
        {
          type: "Feature",
          properties: {},
          geometry: {
            type: "MultiLineString",
            coordinates: [
              [
                [-100, 40],
                [-100, 40.1],
              ],
              [
                [-99, 40],
                [-99, 40.1],
              ],
            ],
          },
        },
      ]),
    );
    expect(lines).toHaveLength(3);
    expect(lines[0]!.lengthMiles).toBe(12.5);
  });

  test.each([
    ["not json", /not JSON/],
    [JSON.stringify({ type: "Feature" }), /FeatureCollection/],
    [collection([]), /no road lines/],
    [collection([{ type: "Feature", geometry: { type: "Point", coordinates: [-100, 40] } }]), /feature 0: geometry must be/],
    [
      collection([
        {
          type: "Feature",
          geometry: {
            type: "LineString",
            coordinates: [
              [-100, 40],
              [-400, 40],
            ],
          },
        },
      ]),
      /feature 0: .*within range/,
    ],
  ])("refuses %s", (text, message) => {
    expect(() => parseRoadGeoJson(text)).toThrow(RoadFileError);
    expect(() => parseRoadGeoJson(text)).toThrow(message);
  });
});
