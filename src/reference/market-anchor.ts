import type { ResolvedPlace } from "./places.ts";
import { amsReeferLaneSeries } from "./series-ids.ts";
import type { Observation, ReferenceView } from "./view.ts";
import { daysBetween } from "../dates.ts";

/** A USDA AMS reefer spot observation counts as current for this many days (the report is weekly). */
export const AMS_ANCHOR_WINDOW_DAYS = 35;

/** The USDA AMS reefer truck rate (USD/mile) for the lane origin state -> destination city, if recent. */
export function amsReeferRate(view: ReferenceView, origin: ResolvedPlace, destination: ResolvedPlace): Observation | undefined {
  const observation = view.latest(amsReeferLaneSeries(origin.state, destination.city, destination.state));
  if (!observation) return undefined;
  return daysBetween(observation.observedOn, view.asOf) <= AMS_ANCHOR_WINDOW_DAYS ? observation : undefined;
}
