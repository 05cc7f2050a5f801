import { greatCircleMiles } from "../geo/distance.ts";
import { longestOffLandMiles } from "../geo/us-land.ts";
import type { RoutePoint } from "./network.ts";
import { inOpenCountry, lineInOpenCountry } from "./open-country.ts";
import { at } from "./shape-segments.ts";

/** When a route is taken to go round a road the network lacks, and what that road is assumed to cost (docs/rate-model.md, "Road miles"). */
export const MISSING_ROAD_RULES = {
  within: {
    value: 60,
    source:
      "Waybill judgement: US and state highways join Interstates that pass within an hour's drive of each other; " +
      "two points of a route at most 60 straight-line miles apart may be joined by a road the Interstate network lacks.",
  },
  goesRound: {
    value: 1.8,
    source:
      "Waybill judgement: truck roads run 1.04-1.45x the straight line even through mountains (docs/rate-model.md); " +
      "a route covering more than 1.8x the straight line between two of its points over land goes round something a road crosses.",
  },
  assumedCircuity: {
    value: 1.3,
    source:
      "Waybill judgement: the missing road is priced at 1.3x its straight line, between the 1.12 of a desert highway " +
      "(AZ-85, Buckeye-Gila Bend) and the 1.45 of a mountain one (US-287, Fort Collins-Laramie).",
  },
  corridor: {
    value: { goesRound: 1.25, assumedCircuity: 1.15, upToMiles: 350 },
    source:
      "Waybill judgement: beyond 60 straight-line miles, in open country (open-country.ts: the Interior Plains and West Gulf " +
      "Coastal Plain, where US and state highways run nearly as fast as the Interstates in every direction), a route covering " +
      "more than 1.25x the straight line between two of its points goes round a US highway (US-75 Dallas-Tulsa, US-287 " +
      "Dallas-Amarillo, US-23 Toledo-Columbus); that road is counted at 1.15x its straight line, between the 1.12 of the " +
      "metro-to-metro Interstate lanes and the 1.2 of the US road network as a whole (Ballou et al. 2002). A corridor is at most " +
      "350 straight-line miles (a day's drive): a longer way round is a chain of corridors, each tested on its own.",
  },
  material: {
    value: 0.05,
    source:
      "Waybill judgement: the network's own miles are within 5 % of the published ones on 94 % of the reference lanes; " +
      "a saving smaller than 5 % of the lane (a mountain Interstate's winding) is within that error and is no evidence of a missing road.",
  },
} as const;

/** Route points closer than this along the route are not looked at separately. */
const SPACING_MILES = 2;
/** At most this many route points are compared pairwise (a long route is looked at more coarsely). */
const MOST_POINTS = 400;
/** A shortcut whose straight line leaves US land for longer than this crosses water (or a border): no road is assumed there. */
const MAX_OFF_LAND_MILES = 1;

/** Only the largest savings are checked for water (each check samples the line every mile). */
const MOST_LAND_CHECKS = 50;
/** Only the largest savings are looked at (a corridor's open-country check samples its line every 10 mi). */
const MOST_CANDIDATES = 200;

export interface MissingRoad {
  /** Where the route leaves and rejoins the assumed road. */
  from: RoutePoint;
  to: RoutePoint;
  straightMiles: number;
  /** The assumed road's miles against its straight line. */
  assumedCircuity: number;
  /** Route miles between the two points minus the assumed road's miles. */
  savedMiles: number;
  /** A local shortcut (within 60 mi, anywhere over land) or a corridor one (longer, in open country). */
  scale: "local" | "corridor";
}

function resample(path: readonly RoutePoint[]): RoutePoint[] {
  const [first] = path;
  const last = path.at(-1);
  if (!first || !last) return [];
  const spacing = Math.max(SPACING_MILES, (last.miles - first.miles) / MOST_POINTS);
  const kept: RoutePoint[] = [];
  let previous: RoutePoint | undefined;
  for (const point of path) {
    if (previous && point.miles - previous.miles < spacing) continue;
    kept.push(point);
    previous = point;
  }
  return kept;
}

/**
 * The largest saving a road the network lacks would give this route: two points of the route, close in a straight line
 * over land (or farther apart over open country), that the route joins only by going round, saving more than 5 % of the
 * lane. The route's miles less the saving bound the lane's real miles.
 */
export function missingRoadShortcut(
  path: readonly RoutePoint[] | undefined,
  laneMiles: number,
): MissingRoad | undefined {
  if (!path || path.length < 2) return undefined;
  const points = resample(path);
  const { within, goesRound, assumedCircuity, material, corridor } = MISSING_ROAD_RULES;
  const local = { goesRound: goesRound.value, assumedCircuity: assumedCircuity.value };
  const open = points.map((p) => inOpenCountry(p));
  // A flat-earth pre-check (within 2 %) keeps trigonometry out of the pairwise loop; candidates are then measured exactly.
  const candidates: MissingRoad[] = [];
  for (const [i, a] of points.entries()) {
    const milesPerLon = 69.17 * Math.cos((a.lat * Math.PI) / 180);
    for (let j = i + 1; j < points.length; j++) {
      const b = at(points, j);
      const rough = Math.hypot((b.lon - a.lon) * milesPerLon, (b.lat - a.lat) * 69.05);
      const corridorScale = rough > within.value * 0.98;
      if (corridorScale && !(open[i] && open[j] && rough <= corridor.value.upToMiles)) continue;
      const along = b.miles - a.miles;
      if (along <= (corridorScale ? corridor.value : local).goesRound * rough * 0.98) continue;
      const straightMiles = greatCircleMiles(a, b);
      const scale = straightMiles > within.value ? "corridor" : "local";
      if (scale === "corridor" && !(open[i] && open[j] && straightMiles <= corridor.value.upToMiles)) continue;
      const rule = scale === "corridor" ? corridor.value : local;
      if (along <= rule.goesRound * straightMiles) continue;
      const savedMiles = along - rule.assumedCircuity * straightMiles;
      if (savedMiles > material.value * laneMiles)
        candidates.push({ from: a, to: b, straightMiles, assumedCircuity: rule.assumedCircuity, savedMiles, scale });
    }
  }
  candidates.sort((a, b) => b.savedMiles - a.savedMiles);
  // Largest saving first: a corridor's straight line must stay in open country all the way (a coarse outline, cheap),
  // then at most 50 candidates are checked for water (each samples its line every mile); at most 200 are looked at.
  let landChecks = 0;
  for (const c of candidates.slice(0, MOST_CANDIDATES)) {
    if (c.scale === "corridor" && !lineInOpenCountry(c.from, c.to)) continue;
    if (longestOffLandMiles(c.from, c.to) <= MAX_OFF_LAND_MILES) return c;
    if (++landChecks >= MOST_LAND_CHECKS) return undefined;
  }
  return undefined;
}
