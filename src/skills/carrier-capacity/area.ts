/**
 * The area a capacity question is about: one state, a list of states, a PADD, a census region, or
 * the whole country, resolved to the states it covers.
 */
import { PADD_LABEL, STATE_CODES, stateInfo, type StateCode } from "../../reference/geo/regions.ts";

/** U.S. Census Bureau regions (census.gov, "Census Regions and Divisions of the United States"). */
const CENSUS_REGIONS = {
  NORTHEAST: ["CT", "ME", "MA", "NH", "RI", "VT", "NJ", "NY", "PA"],
  MIDWEST: ["IL", "IN", "MI", "OH", "WI", "IA", "KS", "MN", "MO", "NE", "ND", "SD"],
  SOUTH: ["DE", "DC", "FL", "GA", "MD", "NC", "SC", "VA", "WV", "AL", "KY", "MS", "TN", "AR", "LA", "OK", "TX"],
  WEST: ["AZ", "CO", "ID", "MT", "NV", "NM", "UT", "WY", "AK", "CA", "HI", "OR", "WA"],
} as const satisfies Record<string, readonly StateCode[]>;

const PADDS = ["PADD1", "PADD2", "PADD3", "PADD4", "PADD5"] as const;
type Padd = (typeof PADDS)[number];

/** States of a PADD, from the EIA diesel area each state belongs to (PADD 1's sub-districts folded in). */
const paddStates = (padd: Padd): StateCode[] =>
  STATE_CODES.filter((state) => `PADD${PADD_LABEL[stateInfo(state).dieselArea][0]}` === padd);

export const AREA_NAMES = [
  "NATIONAL",
  ...PADDS,
  ...(Object.keys(CENSUS_REGIONS) as (keyof typeof CENSUS_REGIONS)[]),
  ...STATE_CODES,
] as const;
export type AreaName = (typeof AREA_NAMES)[number];

export type AreaKind = "NATIONAL" | "PADD" | "CENSUS_REGION" | "STATE" | "STATES";

export interface Area {
  name: string;
  kind: AreaKind;
  states: StateCode[];
}

/** A named area, or the caller's own list of states (deduplicated, in the order given). */
export function resolveArea(name: AreaName | undefined, states: readonly StateCode[] | undefined): Area {
  if (states && states.length > 0) {
    const unique = [...new Set(states)];
    const [only] = unique;
    return only !== undefined && unique.length === 1
      ? { name: only, kind: "STATE", states: unique }
      : { name: unique.join("+"), kind: "STATES", states: unique };
  }
  const area = name ?? "NATIONAL";
  if (area === "NATIONAL") return { name: area, kind: "NATIONAL", states: [...STATE_CODES] };
  if ((PADDS as readonly string[]).includes(area))
    return { name: area, kind: "PADD", states: paddStates(area as Padd) };
  if (Object.hasOwn(CENSUS_REGIONS, area))
    return { name: area, kind: "CENSUS_REGION", states: [...CENSUS_REGIONS[area as keyof typeof CENSUS_REGIONS]] };
  return { name: area, kind: "STATE", states: [area as StateCode] };
}
