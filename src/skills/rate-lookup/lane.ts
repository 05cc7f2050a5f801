import { errors } from "../../http/errors.ts";
import { greatCircleMiles } from "../../reference/distance.ts";
import { resolvePlace, type ResolvedPlace } from "../../reference/places.ts";
import { circuityFactor, RATE_MODEL } from "./constants.ts";

export interface Lane {
  origin: ResolvedPlace;
  destination: ResolvedPlace;
  miles: number;
  distanceMethod: "GREAT_CIRCLE_X_CIRCUITY" | "CALLER_PROVIDED";
}

function resolveOrRefuse(field: "origin" | "destination", text: string): ResolvedPlace {
  const resolution = resolvePlace(text);
  if (!resolution.ok) throw errors.unresolvedLocation(field, text, resolution.suggestions);
  return resolution.place;
}

/** Both ends resolved to places, and the miles to price: the caller's, or great-circle x circuity. */
export function resolveLane(originText: string, destinationText: string, callerMiles: number | undefined): Lane {
  if (callerMiles !== undefined && !(callerMiles > 0 && callerMiles <= RATE_MODEL.maxLaneMiles.value)) {
    throw errors.invalidRequest([
      { field: "miles", problem: `must be greater than 0 and at most ${RATE_MODEL.maxLaneMiles.value}; got ${callerMiles}` },
    ]);
  }
  const origin = resolveOrRefuse("origin", originText);
  const destination = resolveOrRefuse("destination", destinationText);
  const crowFlies = greatCircleMiles(origin, destination);
  if (crowFlies < 1) {
    throw errors.invalidRequest([
      { field: "destination", problem: `is the same place as origin (${origin.city}, ${origin.state}); a lane needs two places` },
    ]);
  }
  if (callerMiles !== undefined) return { origin, destination, miles: callerMiles, distanceMethod: "CALLER_PROVIDED" };
  return { origin, destination, miles: crowFlies * circuityFactor(crowFlies), distanceMethod: "GREAT_CIRCLE_X_CIRCUITY" };
}
