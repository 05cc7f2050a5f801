import { greatCircleMiles, type Point } from "../geo/distance.ts";
import { longestOffLandMiles } from "../geo/us-land.ts";
import { type MissingRoad, missingRoadShortcut } from "./missing-road.ts";
import { lineMostlyInMountains } from "./mountains.ts";
import type { RoadNetwork, RoadRoute, Snap } from "./network.ts";

/**
 * Moves whenever a routing rule below changes: the same network then prices some lanes differently, so answers name it
 * in their model version. roads-r2: several joins per place, the water rule; roads-r3: joins ahead of a place, the
 * missing-road bound; roads-r4: the missing-road bound at corridor scale over open country, the detour fallback's circuity;
 * roads-r5: mountain country's road circuity for the local-road cap and the detour fallback, the Springfield Plateau and the
 * Florida peninsula as open country; roads-r6: the local-road cap only for a short lane's implausible route, the places
 * themselves as ends of a road the network lacks.
 */
export const ROAD_ROUTING_REVISION = "roads-r6";

/** When the network's answer is used, and how a place reaches it (docs/rate-model.md, "Road miles"). */
export const ROAD_RULES = {
  connectorCircuity: {
    value: 1.2,
    source:
      "Local roads from a place to the Interstate: the urban random-pair circuity 1.2 (Newell 1980; Ballou et al. 2002).",
  },
  maxConnectorMiles: {
    value: 60,
    source:
      "Waybill judgement: a place farther than an hour's drive from any Interstate in the network is priced off-network.",
  },
  joinCandidates: {
    value: 4,
    source:
      "Waybill judgement: a city centre lies between several Interstates; its nearest one is often not the one a truck takes, " +
      "so each place may join at the nearest point of any of its 4 nearest roads, and the cheapest whole route (local legs included) wins.",
  },
  joinReach: {
    value: { times: 2, plusMiles: 2 },
    source:
      "Waybill judgement: a road other than the nearest is a way onto the network if it is at most 2x as far from the place + 2 mi.",
  },
  aheadJoins: {
    value: { lookAgainAbove: 1.2, count: 4, reach: { miles: 15, shareOfLane: 0.1 }, coneDegrees: 30 },
    source:
      "Waybill judgement: when the route from the nearest joins runs over 1.2x the straight line, each place may also join at " +
      "its 4 nearest points of road within 30 degrees of the line to the other place and within 15 mi (at most a tenth of the " +
      "lane): city streets lead every way, so the Interstate ahead is reached directly rather than round by the nearest one.",
  },
  maxDetourRatio: {
    value: 1.45,
    source:
      "Waybill judgement: US truck lanes run 1.04-1.3x the great-circle distance; a network path above 1.45x means the real route " +
      "uses roads the network lacks (US highways, Canadian roads), so the estimate falls back.",
  },
  waterDetour: {
    value: { minOffLandMiles: 10, maxRatio: 3 },
    source:
      "Waybill judgement: a straight line that runs 10 mi or more off US land (Census nation outline, us-atlas: lakes, sea, abroad) " +
      "explains a network route up to 3x it (Detroit-Cleveland runs round Lake Erie at 1.9x); the same detour over land means a missing road.",
  },
  detourFallbackCircuity: {
    value: 1.2,
    source:
      "A lane the Interstates serve only by an implausible detour runs on US and state highways across the corridor: priced at 1.2x " +
      "its straight line, the mean road circuity of the US network (Ballou et al. 2002), not the 1.12 of metro-to-metro Interstate " +
      "lanes, which are the lanes the network does serve. (A place far from any Interstate keeps the rate model's circuity: its long " +
      "haul is still Interstate.)",
  },
  mountainCircuity: {
    value: 1.35,
    source:
      "Waybill judgement: where most of the straight line lies in mountain country (mountains.ts: the Rockies and the Colorado " +
      "Plateaus), roads climb passes and follow canyons: a road there is counted at 1.35x its straight line, between the 1.2 of " +
      "the US network as a whole (Ballou et al. 2002) and the 1.45 of a mountain highway over a pass (US-287, Fort Collins-Laramie). " +
      "It replaces the 1.2 of the local-road cap on a short lane and of the detour fallback.",
  },
} as const;

/** The circuity of a road the network lacks between two places: higher where most of the line crosses mountains. */
function terrainCircuity(
  origin: Point,
  destination: Point,
  elsewhere: number,
): { circuity: number; mountains: boolean } {
  const mountains = lineMostlyInMountains(origin, destination);
  return { circuity: mountains ? ROAD_RULES.mountainCircuity.value : elsewhere, mountains };
}

/**
 * A long way round is the real road when the straight line crosses water (or leaves the country) for a stretch:
 * no road takes the crow's line there, so the network's detour is not a road it lacks.
 */
function roundWater(origin: Point, destination: Point, detourRatio: number): boolean {
  const { minOffLandMiles, maxRatio } = ROAD_RULES.waterDetour.value;
  return detourRatio <= maxRatio && longestOffLandMiles(origin, destination) >= minOffLandMiles;
}

/** Below this straight-line distance a lane may be local roads all the way. */
const SHORT_LANE_MILES = 50;

export type RoadMiles =
  | {
      method: "ROAD_NETWORK";
      miles: number;
      networkMiles: number;
      connectorMiles: { origin: number; destination: number };
      detourRatio: number;
      /** The straight line crosses water (or leaves the country), so a long way round is the real road. */
      roundWater: boolean;
      /** The route goes round a road the network lacks; `miles` already counts that road instead. */
      missingRoad?: MissingRoad;
    }
  /** A place is farther from the network than a local leg reaches: the caller estimates the lane's miles. */
  | { method: "OFF_NETWORK"; cause: "FAR_FROM_NETWORK"; reason: string; greatCircleMiles: number }
  /** The network's route is implausibly long over land: `miles` is the straight line x the detour fallback circuity (the mountain circuity across mountains). */
  | { method: "OFF_NETWORK"; cause: "IMPLAUSIBLE_DETOUR"; reason: string; greatCircleMiles: number; miles: number };

/** Road miles between two places on the network, or why the network cannot serve the lane. */
export function roadMiles(network: RoadNetwork, origin: Point, destination: Point): RoadMiles {
  const crow = greatCircleMiles(origin, destination);
  const { connectorCircuity, maxConnectorMiles, maxDetourRatio, joinCandidates, joinReach, aheadJoins } = ROAD_RULES;
  const joins = {
    origin: network.snapCandidates(origin, joinCandidates.value),
    destination: network.snapCandidates(destination, joinCandidates.value),
  };
  for (const end of ["origin", "destination"] as const) {
    const [nearest] = joins[end];
    if (!nearest) throw new RangeError(`road network ${network.version} has no road to join the ${end} to`);
    if (nearest.offsetMiles > maxConnectorMiles.value) {
      return {
        method: "OFF_NETWORK",
        cause: "FAR_FROM_NETWORK",
        reason: `${end} is ${Math.round(nearest.offsetMiles)} mi from the nearest Interstate in road network ${network.version}`,
        greatCircleMiles: crow,
      };
    }
  }
  // Another road counts as a way onto the network only when it is about as near as the nearest one: a far join's
  // straight local leg would cut across what the road itself goes round.
  const withinReach = ([nearest, ...others]: Snap[]): Snap[] => {
    if (!nearest) return [];
    const reach = Math.min(
      maxConnectorMiles.value,
      joinReach.value.times * nearest.offsetMiles + joinReach.value.plusMiles,
    );
    return [nearest, ...others.filter((snap) => snap.offsetMiles <= reach)];
  };
  // A long way round from the nearest joins may be a city's Interstate leading away from the destination while local
  // roads run straight to another one ahead (Washington, DC has no Interstate north out of the centre): look again
  // with joins ahead of each place.
  const { reach: aheadReach, coneDegrees, count, lookAgainAbove } = aheadJoins.value;
  const ahead = (place: Point, other: Point) =>
    network.snapCandidates(place, count, {
      point: other,
      withinMiles: Math.min(aheadReach.miles, aheadReach.shareOfLane * crow),
      coneDegrees,
    });
  const byRoad = (r: RoadRoute) =>
    r.networkMiles + (r.origin.offsetMiles + r.destination.offsetMiles) * connectorCircuity.value;
  let route = network.cheapestJoin(
    withinReach(joins.origin),
    withinReach(joins.destination),
    destination,
    connectorCircuity.value,
    true,
  );
  if (byRoad(route) / crow > lookAgainAbove) {
    const again = network.cheapestJoin(
      [...withinReach(joins.origin), ...ahead(origin, destination)],
      [...withinReach(joins.destination), ...ahead(destination, origin)],
      destination,
      connectorCircuity.value,
      true,
    );
    if (byRoad(again) < byRoad(route)) route = again;
  }
  const connectorMiles = {
    origin: route.origin.offsetMiles * connectorCircuity.value,
    destination: route.destination.offsetMiles * connectorCircuity.value,
  };
  // A short lane whose route runs implausibly long (two places beside one stretch of road, their local legs
  // overlapping it; or a local road the network lacks: Baltimore-Washington) is a local trip, capped by the direct
  // local-road estimate (the mountain circuity across mountains). Below that the Interstate is the road: short lanes
  // really run 1.3-1.4x on it (Seattle-Tacoma, Akron-Cleveland, Butte-Helena).
  const viaNetwork = route.networkMiles + connectorMiles.origin + connectorMiles.destination;
  const localTrip = crow < SHORT_LANE_MILES && viaNetwork / crow > maxDetourRatio.value;
  let miles = localTrip
    ? Math.min(viaNetwork, crow * terrainCircuity(origin, destination, connectorCircuity.value).circuity)
    : viaNetwork;
  // A long route may go round a road the network lacks: the real miles are then bounded by the route less that
  // road's saving (docs/rate-model.md, "Road miles"). The places themselves end the route: that road may run to a
  // place directly rather than to where its local leg joins the network (US-52 runs into Rochester, MN from the
  // north; I-90 passes 8 mi south).
  const fromPlaceToPlace = route.path && [
    { lat: origin.lat, lon: origin.lon, miles: 0 },
    ...route.path,
    { lat: destination.lat, lon: destination.lon, miles: viaNetwork },
  ];
  // A local trip's cap already prices the local road, so no saving is taken off it again.
  const missingRoad =
    !localTrip && miles / crow > lookAgainAbove ? missingRoadShortcut(fromPlaceToPlace, miles) : undefined;
  if (missingRoad) miles -= missingRoad.savedMiles;
  const detourRatio = miles / crow;
  const water = detourRatio > maxDetourRatio.value && roundWater(origin, destination, detourRatio);
  if (!Number.isFinite(miles) || (detourRatio > maxDetourRatio.value && !water)) {
    const fallback = terrainCircuity(origin, destination, ROAD_RULES.detourFallbackCircuity.value);
    return {
      method: "OFF_NETWORK",
      cause: "IMPLAUSIBLE_DETOUR",
      reason:
        `the Interstate route is ${detourRatio.toFixed(2)}x the straight-line distance (over ${maxDetourRatio.value}x) with land all the way: the real route uses roads road network ${network.version} lacks` +
        (fallback.mountains
          ? `; most of the way crosses mountains, so that road is counted at ${fallback.circuity}x the straight line`
          : ""),
      greatCircleMiles: crow,
      miles: crow * fallback.circuity,
    };
  }
  return {
    method: "ROAD_NETWORK",
    miles,
    networkMiles: route.networkMiles,
    connectorMiles,
    detourRatio,
    roundWater: water,
    ...(missingRoad && { missingRoad }),
  };
}

/**
 * The road a lane is drawn along on a map: the network's shortest route between the places'
 * nearest points, from place to place. Undefined when a place is too far from the network. For
 * drawing only; the miles a lane is priced at come from roadMiles, which also weighs other joins.
 */
export function roadPath(network: RoadNetwork, origin: Point, destination: Point): Point[] | undefined {
  const [from] = network.snapCandidates(origin, 1);
  const [to] = network.snapCandidates(destination, 1);
  if (!from || !to || Math.max(from.offsetMiles, to.offsetMiles) > ROAD_RULES.maxConnectorMiles.value) return undefined;
  const route = network.cheapestJoin([from], [to], destination, 1, true);
  return [origin, ...(route.path ?? []), destination].map(({ lat, lon }) => ({ lat, lon }));
}
