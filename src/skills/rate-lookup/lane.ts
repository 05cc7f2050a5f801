import { errors } from "../../errors.ts";
import { greatCircleMiles } from "../../reference/geo/distance.ts";
import type { ResolvedPlace } from "../../reference/geo/places.ts";
import { embeddedRoadNetwork, type RoadNetwork } from "../../reference/roads/index.ts";
import type { MissingRoad } from "../../reference/roads/missing-road.ts";
import { circuityFactor, RATE_MODEL } from "./constants.ts";
import { cachedPlaceResolution, cachedRoadMiles } from "./lane-cache.ts";

export type DistanceMethod = "ROAD_NETWORK" | "ROAD_NETWORK_BOUNDED" | "GREAT_CIRCLE_X_CIRCUITY" | "CALLER_PROVIDED";

export interface Lane {
  origin: ResolvedPlace;
  destination: ResolvedPlace;
  miles: number;
  distanceMethod: DistanceMethod;
  /** The road network that was asked for the miles (receipts carry it). */
  roadNetwork: string;
  /** Miles of local road from each place to the network, when the network priced the lane. */
  connectorMiles?: { origin: number; destination: number };
  /** The network route against the straight line, when the network priced the lane (roundWater: a lake or sea explains it). */
  detour?: { ratio: number; roundWater: boolean };
  /** Why the network's answer was not used, when it was not. */
  fallbackReason?: string;
  /** Which road the network lacks was counted instead of the network's way round, when one was (ROAD_NETWORK_BOUNDED). */
  boundReason?: string;
}

export type LaneField = "origin" | "destination" | "miles" | "equipment" | "mode";
/** How a refusal names a lane's field: as is for one lane, by position when lanes come in a list (lanes.3.origin). */
export type LaneFieldName = (field: LaneField) => string;
export const fieldAsIs: LaneFieldName = (field) => field;

/** The place a text names, or the refusal that says why there is none (unknown, ambiguous, no road to it). */
export function placeOrRefuse(field: string, text: string): ResolvedPlace {
  const resolution = cachedPlaceResolution(text);
  if (resolution.ok) return resolution.place;
  if (resolution.reason === "not_road_connected") throw errors.notRoadConnected(field, text, resolution.message);
  if (resolution.reason === "ambiguous") throw errors.ambiguousLocation(field, text, resolution.candidates);
  throw errors.unresolvedLocation(field, text, resolution.suggestions, resolution.why);
}

function checkCallerMiles(callerMiles: number, crowFlies: number, fieldName: LaneFieldName): void {
  const { value: max } = RATE_MODEL.maxLaneMiles;
  // A truck cannot drive a lane shorter than the straight line between its ends (a little slack for place centroids).
  const min = Math.max(RATE_MODEL.minLaneMiles.value, crowFlies * 0.9);
  if (!(callerMiles >= min && callerMiles <= max)) {
    throw errors.invalidRequest([
      {
        field: fieldName("miles"),
        problem: `must be at least ${Math.ceil(min)} (the places are ${Math.round(crowFlies)} mi apart in a straight line) and at most ${max}; got ${callerMiles}`,
      },
    ]);
  }
}

/** Both ends resolved to places, and the miles to price: the caller's, the road network's, or great-circle x circuity. */
export function resolveLane(
  originText: string,
  destinationText: string,
  callerMiles: number | undefined,
  fieldName: LaneFieldName = fieldAsIs,
  network: RoadNetwork = embeddedRoadNetwork(),
): Lane {
  if (callerMiles !== undefined && !Number.isFinite(callerMiles)) {
    throw errors.invalidRequest([
      { field: fieldName("miles"), problem: `must be a finite number; got ${callerMiles}` },
    ]);
  }
  const origin = placeOrRefuse(fieldName("origin"), originText);
  const destination = placeOrRefuse(fieldName("destination"), destinationText);
  const crowFlies = greatCircleMiles(origin, destination);
  if (crowFlies < 1) {
    throw errors.invalidRequest([
      {
        field: fieldName("destination"),
        problem: `is the same place as origin (${origin.city}, ${origin.state}); a lane needs two places`,
      },
    ]);
  }
  const base = { origin, destination, roadNetwork: network.version };
  if (callerMiles !== undefined) {
    checkCallerMiles(callerMiles, crowFlies, fieldName);
    return { ...base, miles: callerMiles, distanceMethod: "CALLER_PROVIDED" };
  }
  const road = cachedRoadMiles(network, origin, destination);
  if (road.method === "ROAD_NETWORK") {
    const onNetwork = {
      ...base,
      miles: road.miles,
      connectorMiles: road.connectorMiles,
      detour: { ratio: road.detourRatio, roundWater: road.roundWater },
    };
    if (!road.missingRoad) return { ...onNetwork, distanceMethod: "ROAD_NETWORK" };
    return { ...onNetwork, distanceMethod: "ROAD_NETWORK_BOUNDED", boundReason: describeMissingRoad(road.missingRoad) };
  }
  // A detour the network cannot serve comes with its own estimate; a place far from the network keeps the model's circuity.
  const miles = road.cause === "IMPLAUSIBLE_DETOUR" ? road.miles : crowFlies * circuityFactor(crowFlies);
  return { ...base, miles, distanceMethod: "GREAT_CIRCLE_X_CIRCUITY", fallbackReason: road.reason };
}

const at = (point: { lat: number; lon: number }) => `${point.lat.toFixed(2)},${point.lon.toFixed(2)}`;

function describeMissingRoad(road: MissingRoad): string {
  const byNetwork = road.to.miles - road.from.miles;
  return (
    `the Interstate route goes ${Math.round(byNetwork)} mi round between ${at(road.from)} and ${at(road.to)}, ` +
    `${Math.round(road.straightMiles)} mi apart in a straight line ${road.scale === "corridor" ? "across open country" : "over land"}: ` +
    `a ${road.scale === "corridor" ? "US highway" : "road"} the network lacks is counted there at ` +
    `${road.assumedCircuity}x the straight line (${Math.round(road.savedMiles)} mi less)`
  );
}
