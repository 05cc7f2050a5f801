/** The FMCSA census aggregates of an area, summed over its states and operations (docs/carrier-capacity.md). */
import type { Area } from "./area.ts";
import { observationAtOrBefore, shiftDate } from "../../reference/series/series-stats.ts";
import {
  CARRIER_OPERATIONS,
  CENSUS_MEASURES,
  fmcsaCensusSeries,
  type CarrierOperation,
  type CensusMeasure,
} from "../../reference/series/series-ids.ts";
import type { Observation, ReferenceView } from "../../reference/storage/view.ts";

export type CensusCounts = Record<CensusMeasure, number>;

export interface CensusTotals {
  date: string;
  total: CensusCounts;
  byOperation: Record<CarrierOperation, CensusCounts>;
  observations: Observation[];
}

const zero = (): CensusCounts => ({ CARRIERS: 0, POWER_UNITS: 0, DRIVERS: 0 });

/** Dates of the censuses loaded, oldest first (every import writes the U.S. totals, so one series tells them). */
export function censusDates(view: ReferenceView): string[] {
  return view.history(fmcsaCensusSeries("CARRIERS", "US", "A")).map((observation) => observation.observedOn);
}

/** Where an area's census figures are stored: the import's U.S. totals for NATIONAL, else each state. */
export const censusPlaces = (area: Area): readonly string[] => (area.kind === "NATIONAL" ? ["US"] : area.states);

/** The area's counts in the census dated `date` (only `measures`, others stay 0); undefined when a figure is not there. */
export function censusTotalsOn(
  view: ReferenceView,
  area: Area,
  date: string,
  measures: readonly CensusMeasure[] = CENSUS_MEASURES,
): CensusTotals | undefined {
  const totals: CensusTotals = {
    date,
    total: zero(),
    byOperation: { A: zero(), B: zero(), C: zero() },
    observations: [],
  };
  for (const state of censusPlaces(area)) {
    for (const operation of CARRIER_OPERATIONS) {
      for (const measure of measures) {
        const observation = observationAtOrBefore(
          view.history(fmcsaCensusSeries(measure, state, operation), date),
          date,
        );
        if (!observation || observation.observedOn !== date) return undefined;
        totals.total[measure] += observation.value;
        totals.byOperation[operation][measure] += observation.value;
        totals.observations.push(observation);
      }
    }
  }
  return totals;
}

/** The newest census and the newest one at least `months` older: the area's power units in each. */
export function latestCensusPair(view: ReferenceView, area: Area, months: number) {
  const dates = censusDates(view);
  const latestDate = dates.at(-1);
  if (!latestDate) return { latest: undefined, earlier: undefined };
  const cutoff = shiftDate(latestDate, { months: -months });
  const earlierDate = dates.filter((date) => date <= cutoff).at(-1);
  return {
    latest: censusTotalsOn(view, area, latestDate, ["POWER_UNITS"]),
    earlier: earlierDate === undefined ? undefined : censusTotalsOn(view, area, earlierDate, ["POWER_UNITS"]),
  };
}
