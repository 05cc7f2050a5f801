/**
 * The checks an imported road network passes before an operator may promote it (docs/rate-model.md,
 * "Bring your own road network"): it reaches every corner of the lower 48, its reference cities are
 * connected, and a fixed set of reference lanes comes out within a stated band of the network in use
 * (or, where that one cannot route them, within great-circle bounds).
 */
import { greatCircleMiles } from "../geo/distance.ts";
import type { RoadNetwork } from "./network.ts";
import { ROAD_RULES, roadMiles } from "./road-miles.ts";

type Point = { lat: number; lon: number };

/** Metro areas spread over the lower 48: each must be within a local leg of the network. */
const REFERENCE_CITIES: Record<string, Point> = {
  Seattle: { lat: 47.61, lon: -122.33 },
  "Los Angeles": { lat: 34.05, lon: -118.24 },
  Phoenix: { lat: 33.45, lon: -112.07 },
  Denver: { lat: 39.74, lon: -104.99 },
  Dallas: { lat: 32.78, lon: -96.8 },
  Houston: { lat: 29.76, lon: -95.37 },
  "Kansas City": { lat: 39.1, lon: -94.58 },
  Minneapolis: { lat: 44.98, lon: -93.27 },
  Chicago: { lat: 41.88, lon: -87.63 },
  Atlanta: { lat: 33.75, lon: -84.39 },
  Jacksonville: { lat: 30.33, lon: -81.66 },
  Miami: { lat: 25.76, lon: -80.19 },
  "New York": { lat: 40.71, lon: -74.01 },
  Boston: { lat: 42.36, lon: -71.06 },
};

/** Lanes across every region; Houston-Jacksonville is the lane a junk grid once priced at 2,280 mi (real about 860). */
const REFERENCE_LANES: [string, string][] = [
  ["Houston", "Jacksonville"],
  ["Chicago", "Dallas"],
  ["Los Angeles", "Phoenix"],
  ["Seattle", "Denver"],
  ["Atlanta", "New York"],
  ["Miami", "Atlanta"],
  ["Minneapolis", "Kansas City"],
  ["Boston", "Chicago"],
  ["Los Angeles", "Dallas"],
  ["Denver", "Kansas City"],
];

/** A reference lane may differ this much from the network in use. */
export const LANE_BAND = 0.15;
/** Where the network in use cannot route a lane: road miles must lie within these multiples of the straight line. */
export const GREAT_CIRCLE_BOUNDS = { min: 1.0, max: 1.5 } as const;

export interface RoadCheck {
  name: string;
  passed: boolean;
  detail: string;
}

export interface RoadNetworkReport {
  passed: boolean;
  /** The network the reference lanes were compared with. */
  comparedWith: string;
  checks: RoadCheck[];
}

const round = (miles: number) => Math.round(miles);

function laneCheck(candidate: RoadNetwork, inUse: RoadNetwork, from: string, to: string): RoadCheck {
  const a = REFERENCE_CITIES[from] as Point;
  const b = REFERENCE_CITIES[to] as Point;
  const name = `lane ${from} - ${to}`;
  const got = roadMiles(candidate, a, b);
  if (got.method !== "ROAD_NETWORK") return { name, passed: false, detail: `not routed on the network: ${got.reason}` };
  const reference = roadMiles(inUse, a, b);
  if (reference.method === "ROAD_NETWORK") {
    const ratio = got.miles / reference.miles;
    return {
      name,
      passed: Math.abs(ratio - 1) <= LANE_BAND,
      detail: `${round(got.miles)} mi; ${inUse.version} gives ${round(reference.miles)} mi (band ±${LANE_BAND * 100}%)`,
    };
  }
  const crow = greatCircleMiles(a, b);
  const ratio = got.miles / crow;
  return {
    name,
    passed: ratio >= GREAT_CIRCLE_BOUNDS.min && ratio <= GREAT_CIRCLE_BOUNDS.max,
    detail: `${round(got.miles)} mi, ${ratio.toFixed(2)}x the straight line (bounds ${GREAT_CIRCLE_BOUNDS.min}-${GREAT_CIRCLE_BOUNDS.max}x)`,
  };
}

/**
 * Resident memory an import may add, MiB: a 100 MB junk grid once took 2.44 GB to import. Checked after the file
 * is read and after the network is built, against the memory held before the import began; beyond it the import
 * stops (RoadFileError), below it the report says how much was used.
 */
export const IMPORT_MEMORY_CAP_MIB = 2048;

/** Resident memory now, MiB. */
export const residentMiB = () => Math.round(process.memoryUsage.rss() / 2 ** 20);

/** The memory check of an import whose resident memory grew by at most `peakMiB`. */
export function memoryCheck(peakMiB: number): RoadCheck {
  return {
    name: "memory",
    passed: peakMiB <= IMPORT_MEMORY_CAP_MIB,
    detail: `${peakMiB} MiB more resident at most (sampled after reading and after building; cap ${IMPORT_MEMORY_CAP_MIB} MiB)`,
  };
}

/** Every check on `candidate`, compared with the network pricing lanes now. */
export function validateRoadNetwork(
  candidate: RoadNetwork,
  inUse: RoadNetwork,
  extraChecks: RoadCheck[] = [],
): RoadNetworkReport {
  const reach = ROAD_RULES.maxConnectorMiles.value;
  const far = Object.entries(REFERENCE_CITIES)
    .map(([city, point]) => ({ city, offset: candidate.snap(point).offsetMiles }))
    .filter(({ offset }) => offset > reach);
  const coverage: RoadCheck = {
    name: "coverage of the lower 48",
    passed: far.length === 0,
    detail:
      far.length === 0
        ? `all ${Object.keys(REFERENCE_CITIES).length} reference cities within ${reach} mi of a road`
        : `farther than ${reach} mi from any road: ${far.map((f) => `${f.city} (${round(f.offset)} mi)`).join(", ")}`,
  };
  const checks = [
    ...extraChecks,
    coverage,
    ...REFERENCE_LANES.map(([from, to]) => laneCheck(candidate, inUse, from, to)),
  ];
  return { passed: checks.every((check) => check.passed), comparedWith: inUse.version, checks };
}
