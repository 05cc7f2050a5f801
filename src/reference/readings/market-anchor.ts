import { amsDestinationOf, amsDistrictsOf } from "../geo/ams-districts.ts";
import { isPrintedAmsRange } from "./ams-range.ts";
import type { Point } from "../geo/distance.ts";
import { amsFvwtrkSeries } from "../series/series-ids.ts";
import type { Observation, ReferenceView } from "../storage/view.ts";
import { daysBetween } from "../../dates.ts";

/** A USDA AMS FVWTRK observation anchors a lane for this many days (two weekly reports; docs/rate-model.md, "Market anchoring"). */
export const AMS_ANCHOR_WINDOW_DAYS = 14;

export interface AmsMarketRate {
  district: string;
  destination: string;
  low: Observation;
  high: Observation;
  /** Midpoint of the range, USD per load. */
  midpoint: number;
}

/**
 * The USDA AMS reefer truck rate range (USD per load) for a lane whose origin lies in a reported shipping district
 * and whose destination is a reported city, from a report no older than two weeks as of the view. When the origin
 * lies in several districts, the nearest district with a current report wins. A range no report prints (ams-range.ts)
 * is a misprint stored before the importer refused them, not a market figure: that district does not anchor.
 */
export function amsMarketRate(view: ReferenceView, origin: Point, destination: Point): AmsMarketRate | undefined {
  const city = amsDestinationOf(destination);
  if (!city) return undefined;
  for (const district of amsDistrictsOf(origin)) {
    const low = view.latest(amsFvwtrkSeries("LOW", district, city));
    const high = view.latest(amsFvwtrkSeries("HIGH", district, city));
    if (!low || !high || low.observedOn !== high.observedOn || !isPrintedAmsRange(low.value, high.value)) continue;
    if (daysBetween(low.observedOn, view.asOf) > AMS_ANCHOR_WINDOW_DAYS) continue;
    return { district, destination: city, low, high, midpoint: (low.value + high.value) / 2 };
  }
  return undefined;
}
