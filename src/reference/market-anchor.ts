import type { ResolvedPlace } from "./places.ts";
import { stateInfo } from "./regions.ts";
import { AMS_FVWTRK_PREFIX, amsFvwtrkSeries, amsIdPart, parseAmsFvwtrkSeries } from "./series-ids.ts";
import type { Observation, ReferenceView } from "./view.ts";
import { daysBetween } from "../dates.ts";

/** A USDA AMS reefer spot observation counts as current for this many days (the report is weekly). */
export const AMS_ANCHOR_WINDOW_DAYS = 35;

export interface AmsLaneRate {
  low: Observation;
  high: Observation;
  /** Midpoint of USDA's $/load range over the lane's miles. */
  ratePerMile: number;
}

const inDistrict = (district: string, origin: ResolvedPlace): boolean => {
  const padded = `-${district}-`;
  return padded.includes(`-${amsIdPart(stateInfo(origin.state).name)}-`) || padded.includes(`-${origin.state}-`);
};

/**
 * The newest recent USDA AMS FVWTRK range for a shipping district in the origin's state to the
 * destination city, as a per-mile midpoint over `miles`. Districts are matched by the state they name.
 */
export function amsReeferRate(view: ReferenceView, origin: ResolvedPlace, destination: ResolvedPlace, miles: number): AmsLaneRate | undefined {
  const city = amsIdPart(destination.city);
  let best: AmsLaneRate | undefined;
  for (const seriesId of view.seriesIds(`${AMS_FVWTRK_PREFIX}LOW_`)) {
    const lane = parseAmsFvwtrkSeries(seriesId)!;
    if (!(city === lane.destination || city.startsWith(`${lane.destination}-`)) || !inDistrict(lane.district, origin)) continue;
    const low = view.latest(seriesId);
    if (!low || daysBetween(low.observedOn, view.asOf) > AMS_ANCHOR_WINDOW_DAYS) continue;
    const high = view.latest(amsFvwtrkSeries("HIGH", lane.district, lane.destination));
    if (!high || high.observedOn !== low.observedOn) continue;
    if (!best || low.observedOn > best.low.observedOn) best = { low, high, ratePerMile: (low.value + high.value) / 2 / miles };
  }
  return best;
}
