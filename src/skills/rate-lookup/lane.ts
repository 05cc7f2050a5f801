import { errors } from "../../errors.ts";
import { greatCircleMiles } from "../../reference/distance.ts";
import { resolvePlace, type ResolvedPlace } from "../../reference/places.ts";
import { circuityFactor, RATE_MODEL } from "./constants.ts";

export interface Lane {
  origin: ResolvedPlace;
  destination: ResolvedPlace;
  miles: number;
  distanceMethod: "GREAT_CIRCLE_X_CIRCUITY" | "CALLER_PROVIDED";
}

export type LaneField = "origin" | "destination" | "miles" | "equipment" | "mode";
/** How a refusal names a lane's field: as is for one lane, by position when lanes come in a list (lanes.3.origin). */
export type LaneFieldName = (field: LaneField) => string;
export const fieldAsIs: LaneFieldName = (field) => field;

function resolveOrRefuse(field: "origin" | "destination", text: string, fieldName: LaneFieldName): ResolvedPlace {
  const resolution = resolvePlace(text);
  if (!resolution.ok) throw errors.unresolvedLocation(fieldName(field), text, resolution.suggestions);
  return resolution.place;
}

/** Both ends resolved to places, and the miles to price: the caller's, or great-circle x circuity. */
export function resolveLane(
  originText: string,
  destinationText: string,
  callerMiles: number | undefined,
  fieldName: LaneFieldName = fieldAsIs,
): Lane {
  if (callerMiles !== undefined && !(callerMiles > 0 && callerMiles <= RATE_MODEL.maxLaneMiles.value)) {
    throw errors.invalidRequest([
      { field: fieldName("miles"), problem: `must be greater than 0 and at most ${RATE_MODEL.maxLaneMiles.value}; got ${callerMiles}` },
    ]);
  }
  const origin = resolveOrRefuse("origin", originText, fieldName);
  const destination = resolveOrRefuse("destination", destinationText, fieldName);
  const crowFlies = greatCircleMiles(origin, destination);
  if (crowFlies < 1) {
    throw errors.invalidRequest([
      { field: fieldName("destination"), problem: `is the same place as origin (${origin.city}, ${origin.state}); a lane needs two places` },
    ]);
  }
  if (callerMiles !== undefined) return { origin, destination, miles: callerMiles, distanceMethod: "CALLER_PROVIDED" };
  return { origin, destination, miles: crowFlies * circuityFactor(crowFlies), distanceMethod: "GREAT_CIRCLE_X_CIRCUITY" };
}
