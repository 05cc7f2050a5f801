import { describe, expect, test } from "bun:test";
import { greatCircleMiles } from "../../../src/reference/geo/distance.ts";
import { parseRoadGeoJson, RoadFileError } from "../../../src/reference/roads/geojson.ts";
import { buildRoadNetwork, type RoadLine } from "../../../src/reference/roads/network-build.ts";
import { MISSING_ROAD_RULES, missingRoadShortcut } from "../../../src/reference/roads/missing-road.ts";
import { RoadNetwork } from "../../../src/reference/roads/network.ts";
import { ROAD_RULES, roadMiles } from "../../../src/reference/roads/road-miles.ts";
import { defined } from "../../support/defined.ts";

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
    expect(short.route(at(-101, 40), at(-100, 41)).networkMiles).toBeLessThan(
      miles([-101, 40], [-100, 40]) + miles([-100, 40], [-100, 41]) + 2,
    );
  });

  test("two carriageways ending side by side short of a road join that road, not each other", () => {
    // A divided highway drawn as two lines 0.14 mi apart, joined at its far end, both stopping 0.7 mi short of a
    // crossing road (I-55 at LaPlace): the nearest line to each loose end is its twin, but the twin is not a way on.
    const road = (...coordinates: [number, number][]): RoadLine => ({ coordinates });
    const net = network([
      road([-101, 40], [-99, 40]),
      road([-100, 40.01], [-100, 41]),
      road([-100, 41], [-99.9973, 40.9], [-99.9973, 40.01]),
    ]);
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
    let previous: [number, number] | undefined;
    for (const next of coordinates) {
      if (previous) drawn += miles(previous, next);
      previous = next;
    }
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
  // A U-shaped road: the two tips are 52 mi apart as the crow flies, 2 x 138 + 53 mi by the road. Drawn in the Great
  // Basin, outside open country, so only the local missing-road rule (within 60 mi) applies to it.
  const uShape = network([
    {
      coordinates: [
        [-117, 41],
        [-117, 39],
        [-116, 39],
        [-116, 41],
      ],
    },
  ]);
  // The same U twice as wide: its tips are 105 mi apart, too far for a road the network lacks to be assumed between them.
  const wideU = network([
    {
      coordinates: [
        [-118, 41],
        [-118, 39],
        [-116, 39],
        [-116, 41],
      ],
    },
  ]);

  test("places beside the road route along it, with local legs to it", () => {
    const result = roadMiles(uShape, at(-117.02, 40.5), at(-116.02, 39.1));
    expect(result.method).toBe("ROAD_NETWORK");
    if (result.method !== "ROAD_NETWORK") return;
    expect(result.connectorMiles.origin).toBeGreaterThan(0.5);
    expect(result.miles).toBeCloseTo(
      result.networkMiles + result.connectorMiles.origin + result.connectorMiles.destination,
      6,
    );
    expect(result.missingRoad).toBeUndefined();
  });

  test("a route that goes round between two points close over land is bounded by a road the network lacks", () => {
    const result = roadMiles(uShape, at(-117, 41), at(-116, 41));
    expect(result.method).toBe("ROAD_NETWORK");
    if (result.method !== "ROAD_NETWORK") return;
    const crow = miles([-117, 41], [-116, 41]);
    expect(result.networkMiles).toBeGreaterThan(300);
    expect(defined(result.missingRoad, "the missing road").straightMiles).toBeCloseTo(crow, 0);
    // The road assumed between the tips costs 1.3x its straight line, and the route's miles count it instead of the U.
    expect(result.miles).toBeCloseTo(crow * MISSING_ROAD_RULES.assumedCircuity.value, 0);
  });

  test("an implausible detour is refused with the ratio, and a place far from the network is off it", () => {
    const detour = roadMiles(wideU, at(-118, 41), at(-116, 41));
    expect(detour).toMatchObject({
      method: "OFF_NETWORK",
      reason: expect.stringMatching(/x the straight-line distance/),
    });
    const far = roadMiles(uShape, at(-111, 40), at(-116, 40));
    expect(far).toMatchObject({
      method: "OFF_NETWORK",
      reason: expect.stringMatching(/^origin is \d+ mi from the nearest Interstate/),
    });
  });

  test("an implausible detour across mountains falls back at the mountain circuity, and says so", () => {
    // The wide U in the Great Basin (basins the highways run straight down) and the same U in the Colorado Rockies.
    const basin = roadMiles(wideU, at(-118, 41), at(-116, 41));
    expect(basin).toMatchObject({ method: "OFF_NETWORK", cause: "IMPLAUSIBLE_DETOUR" });
    expect(basin.method === "OFF_NETWORK" && basin.reason).not.toMatch(/mountains/);
    expect(basin.method === "OFF_NETWORK" && basin.cause === "IMPLAUSIBLE_DETOUR" && basin.miles).toBeCloseTo(
      miles([-118, 41], [-116, 41]) * ROAD_RULES.detourFallbackCircuity.value,
      6,
    );

    const rockiesU = network([
      {
        coordinates: [
          [-108.5, 39.5],
          [-108.5, 37.5],
          [-106.5, 37.5],
          [-106.5, 39.5],
        ],
      },
    ]);
    const rockies = roadMiles(rockiesU, at(-108.5, 39.5), at(-106.5, 39.5));
    expect(rockies).toMatchObject({
      method: "OFF_NETWORK",
      cause: "IMPLAUSIBLE_DETOUR",
      reason: expect.stringMatching(/crosses mountains/),
    });
    expect(rockies.method === "OFF_NETWORK" && rockies.cause === "IMPLAUSIBLE_DETOUR" && rockies.miles).toBeCloseTo(
      miles([-108.5, 39.5], [-106.5, 39.5]) * ROAD_RULES.mountainCircuity.value,
      6,
    );
  });

  test("a short lane keeps a winding Interstate; an implausibly long route is capped at local roads, higher in mountains", () => {
    // A road zigzagging about 1.3x its straight line between two places 41 mi apart is the road (I-15 Butte-Helena runs
    // 1.4x); one zigzagging over 1.45x means local roads the network lacks run more directly.
    const zigzag = (lon: number, lat: number, swing: number) =>
      [0, 1, 2, 3, 4].map((k): [number, number] => [lon + (k % 2) * swing, lat + k * 0.15]);
    const lane = (lon: number, lat: number, swing: number) =>
      roadMiles(network([{ coordinates: zigzag(lon, lat, swing) }]), at(lon, lat), at(lon, lat + 0.6));
    const crow = (lat: number) => miles([-100, lat], [-100, lat + 0.6]);

    const winding = lane(-99, 38.5, 0.15);
    expect(winding.method).toBe("ROAD_NETWORK");
    if (winding.method !== "ROAD_NETWORK") return;
    expect(winding.miles / crow(38.5)).toBeGreaterThan(1.25);
    expect(winding.miles).toBeCloseTo(
      winding.networkMiles + winding.connectorMiles.origin + winding.connectorMiles.destination,
      6,
    );

    const kansas = lane(-99, 38.5, 0.3);
    expect(kansas.method).toBe("ROAD_NETWORK");
    if (kansas.method !== "ROAD_NETWORK") return;
    expect(kansas.networkMiles / crow(38.5)).toBeGreaterThan(ROAD_RULES.maxDetourRatio.value);
    expect(kansas.miles).toBeCloseTo(crow(38.5) * ROAD_RULES.connectorCircuity.value, 6);

    const montana = lane(-112.5, 46, 0.3);
    expect(montana.method === "ROAD_NETWORK" && montana.networkMiles / crow(46)).toBeGreaterThan(
      ROAD_RULES.maxDetourRatio.value,
    );
    expect(montana.method === "ROAD_NETWORK" && montana.miles).toBeCloseTo(
      crow(46) * ROAD_RULES.mountainCircuity.value,
      6,
    );
  });

  test("a road the network lacks may run to the place itself, not only to where its local leg joins", () => {
    // Across Kansas: the road leaves the origin south, turns east and ends 8 mi south of the destination (I-90 passing
    // Rochester, MN, which US-52 enters from the north). The missing road runs place to place.
    const net = network([
      {
        coordinates: [
          [-99, 40],
          [-99, 38.5],
          [-98, 38.5],
        ],
      },
    ]);
    const result = roadMiles(net, at(-99, 40), at(-98, 38.62));
    expect(result.method).toBe("ROAD_NETWORK");
    if (result.method !== "ROAD_NETWORK") return;
    expect(result.missingRoad).toMatchObject({ scale: "corridor", to: { lat: 38.62, lon: -98 } });
    expect(result.miles).toBeCloseTo(
      miles([-99, 40], [-98, 38.62]) * MISSING_ROAD_RULES.corridor.value.assumedCircuity,
      0,
    );
  });
});

describe("a road the network lacks", () => {
  const point = (lon: number, lat: number, along: number) => ({ lon, lat, miles: along });

  test("is assumed only over land: a shortcut across a lake is not a road", () => {
    // Detroit round the western end of Lake Erie to Sandusky, then back to a point across the lake from Detroit.
    const roundLakeErie = [
      point(-83.05, 42.33, 0),
      point(-83.55, 41.65, 50),
      point(-82.7, 41.45, 100),
      point(-82.5, 42.0, 140),
    ];
    expect(missingRoadShortcut(roundLakeErie, 140)).toBeUndefined();
  });

  test("is assumed only where it saves a material share of the lane", () => {
    // A 70-mile loop between two points 5 mi apart, over Nebraska: material on a 200-mile lane, not on a 2,000-mile one.
    const loop = [point(-101, 41, 0), point(-101, 40.5, 35), point(-100.9, 40.5, 40), point(-100.9, 41, 75)];
    expect(missingRoadShortcut(loop, 200)).toMatchObject({ from: loop[0], to: loop[3] });
    expect(missingRoadShortcut(loop, 2000)).toBeUndefined();
  });

  test("at corridor scale is assumed only across open country", () => {
    // A route that goes 290 mi round between two points 82 mi apart (3.5x): across Kansas a US highway runs there and is
    // counted at the corridor circuity; the same shape in the Great Basin is mountains and desert, and no road is assumed.
    const roundAbout = (lon: number) => [
      point(lon, 38, 0),
      point(lon, 39.5, 104),
      point(lon + 1.5, 39.5, 185),
      point(lon + 1.5, 38, 289),
    ];
    const kansas = roundAbout(-99);
    const shortcut = defined(missingRoadShortcut(kansas, 300), "the shortcut across Kansas");
    expect(shortcut).toMatchObject({
      from: kansas[0],
      to: kansas[3],
      scale: "corridor",
      assumedCircuity: MISSING_ROAD_RULES.corridor.value.assumedCircuity,
    });
    expect(shortcut.savedMiles).toBeCloseTo(
      289 - shortcut.straightMiles * MISSING_ROAD_RULES.corridor.value.assumedCircuity,
      6,
    );
    expect(missingRoadShortcut(roundAbout(-117), 300)).toBeUndefined();
  });

  test("at corridor scale is not assumed for a way round within the corridor ratio", () => {
    // 100 mi by road between points 82 mi apart (1.22x): an ordinary dog-leg, even in open country.
    expect(
      missingRoadShortcut([point(-99, 38, 0), point(-98.25, 38.4, 50), point(-97.5, 38, 100)], 100),
    ).toBeUndefined();
  });

  test("is not assumed where the route runs as straight as roads do", () => {
    const straight = [point(-100, 40, 0), point(-99.5, 40, 30), point(-99, 40, 60), point(-98.5, 40, 90)];
    expect(missingRoadShortcut(straight, 90)).toBeUndefined();
  });
});

describe("joining the network ahead of a place", () => {
  // The nearest road, 5.5 mi west, leads away north and round a 400-mile loop; 14 mi east, toward the destination, a
  // road runs straight there (like a city whose nearest Interstates all leave the wrong way). Drawn on the equator,
  // where the build's projection is true, so that no gap is bridged.
  const city = at(0, 0);
  const destination = at(2.5, 0);
  const roads = network([
    {
      coordinates: [
        [-0.08, -0.5],
        [-0.08, 1.5],
        [2.5, 1.5],
        [2.5, 0],
      ],
    },
    {
      coordinates: [
        [0.2, 0],
        [2.5, 0],
      ],
    },
  ]);

  test("a long way round from the nearest road is looked at again with the roads ahead", () => {
    expect(roads.snap(city).offsetMiles).toBeLessThan(6);
    expect(roads.route(city, destination).networkMiles).toBeGreaterThan(300);
    const result = roadMiles(roads, city, destination);
    expect(result.method).toBe("ROAD_NETWORK");
    if (result.method !== "ROAD_NETWORK") return;
    expect(result.connectorMiles.origin).toBeGreaterThan(13 * ROAD_RULES.connectorCircuity.value);
    expect(result.missingRoad).toBeUndefined();
    expect(result.miles).toBeLessThan(miles([0, 0], [2.5, 0]) * 1.1);
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
    expect(defined(lines[0], "the first line").lengthMiles).toBe(12.5);
  });

  test.each([
    ["not json", /not JSON/],
    [JSON.stringify({ type: "Feature" }), /FeatureCollection/],
    [collection([]), /no road lines/],
    [
      collection([{ type: "Feature", geometry: { type: "Point", coordinates: [-100, 40] } }]),
      /feature 0: geometry must be/,
    ],
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

describe("joining the network where the route is cheapest", () => {
  // The place lies 8 mi from a road that reaches the destination only by a 300-mile loop, and 10 mi from the
  // start of the road that leads straight there.
  const loop = network([
    {
      coordinates: [
        [-100.6, 40.1],
        [-99, 40.1],
        [-99, 38],
        [-100.85, 38],
        [-100.85, 39.92],
        [-102.5, 39.92],
      ],
    },
  ]);
  const place = at(-100.75, 40);
  const destination = at(-99, 40.1);

  test("a place may join a road farther than the nearest one when the whole route is shorter", () => {
    expect(loop.snap(place).offsetMiles).toBeLessThan(9);
    const result = roadMiles(loop, place, destination);
    expect(result.method).toBe("ROAD_NETWORK");
    if (result.method !== "ROAD_NETWORK") return;
    expect(result.connectorMiles.origin).toBeGreaterThan(11);
    expect(result.miles).toBeLessThan(miles([-100.75, 40], [-99, 40.1]) * 1.3);
  });

  test("the nearest road alone would be the long way round", () => {
    expect(loop.route(place, destination).networkMiles).toBeGreaterThan(250);
  });
});

describe("a long way round water is the real road", () => {
  // Detroit to Cleveland: 90 mi across Lake Erie, about 150 mi by a road round its western end.
  const detroit = at(-83.05, 42.33);
  const cleveland = at(-81.69, 41.5);
  const roundTheLake: [number, number][] = [
    [-83.05, 42.33],
    [-83.55, 41.65],
    [-81.69, 41.5],
  ];

  test("a detour the straight line explains by crossing a lake is priced on the network", () => {
    const result = roadMiles(network([{ coordinates: roundTheLake }]), detroit, cleveland);
    expect(result.method).toBe("ROAD_NETWORK");
    if (result.method !== "ROAD_NETWORK") return;
    expect(result.detourRatio).toBeGreaterThan(ROAD_RULES.maxDetourRatio.value);
  });

  test("the same detour with land all the way is a missing road", () => {
    // The same shape moved 4 degrees south, into Ohio, Indiana and Kentucky.
    const overLand = roundTheLake.map(([lon, lat]): [number, number] => [lon, lat - 4]);
    const result = roadMiles(network([{ coordinates: overLand }]), at(-83.05, 38.33), at(-81.69, 37.5));
    expect(result).toMatchObject({ method: "OFF_NETWORK", reason: expect.stringMatching(/with land all the way/) });
  });
});
