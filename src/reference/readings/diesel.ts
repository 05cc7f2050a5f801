import { parentDieselArea, DIESEL_AREA_NAMES, stateInfo, type StateCode } from "../geo/regions.ts";
import { dieselSeriesId, type DieselArea } from "../series/series-ids.ts";
import type { Observation, ReferenceView } from "../storage/view.ts";
import { daysBetween } from "../../dates.ts";

export interface DieselReading {
  /** The area the caller asked for. */
  requestedArea: DieselArea;
  /** The area whose figure is used: the requested one, or a broader one when it had no recent figure. */
  area: DieselArea;
  areaName: string;
  observation: Observation;
}

/**
 * A regional figure may lag the U.S. one (EIA's regional copies end earlier than the national one).
 * Older than the newest U.S. week by more than this, a regional price is staler than it is specific.
 */
const MAX_LAG_BEHIND_NATIONAL_DAYS = 7;

/** The weekly retail diesel price for an EIA area as of the view, falling back to broader areas. */
export function dieselPrice(view: ReferenceView, requestedArea: DieselArea): DieselReading | undefined {
  const national = view.latest(dieselSeriesId("NUS"));
  for (let area: DieselArea | undefined = requestedArea; area; area = parentDieselArea(area)) {
    const observation = view.latest(dieselSeriesId(area));
    if (!observation) continue;
    const recentEnough =
      !national || daysBetween(observation.observedOn, national.observedOn) <= MAX_LAG_BEHIND_NATIONAL_DAYS;
    if (recentEnough) return { requestedArea, area, areaName: DIESEL_AREA_NAMES[area], observation };
  }
  return undefined;
}

export const dieselPriceForState = (view: ReferenceView, state: StateCode): DieselReading | undefined =>
  dieselPrice(view, stateInfo(state).dieselArea);

/** Why a broader area's price stands in, or undefined when the requested area's own price is used. */
export function dieselFallbackReason(reading: DieselReading): string | undefined {
  if (reading.area === reading.requestedArea) return undefined;
  return (
    `no ${DIESEL_AREA_NAMES[reading.requestedArea]} price as recent as the U.S. average's; ` +
    `the ${reading.areaName} price for the week of ${reading.observation.observedOn} is used`
  );
}
