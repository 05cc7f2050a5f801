/** The FMCSA census aggregates of an area, summed over its states and operations (docs/carrier-capacity.md). */
import type { StateCode } from "../../reference/regions.ts";
import { observationAtOrBefore, shiftDate } from "../../reference/series-stats.ts";
import { CARRIER_OPERATIONS, CENSUS_MEASURES, fmcsaCensusSeries, type CarrierOperation, type CensusMeasure } from "../../reference/series-ids.ts";
import type { Observation, ReferenceView } from "../../reference/view.ts";

export type CensusCounts = Record<CensusMeasure, number>;

export interface CensusTotals {
  date: string;
  total: CensusCounts;
  byOperation: Record<CarrierOperation, CensusCounts>;
  observations: Observation[];
}

const zero = (): CensusCounts => ({ CARRIERS: 0, POWER_UNITS: 0, DRIVERS: 0 });

/** Dates of the censuses loaded, oldest first (every import writes every state, so one series tells them). */
export function censusDates(view: ReferenceView): string[] {
  return view.history(fmcsaCensusSeries("CARRIERS", "TX", "A")).map((observation) => observation.observedOn);
}

/** The area's counts in the census dated `date`; undefined when a state's figures are not there. */
export function censusTotalsOn(view: ReferenceView, states: readonly StateCode[], date: string): CensusTotals | undefined {
  const totals: CensusTotals = { date, total: zero(), byOperation: { A: zero(), B: zero(), C: zero() }, observations: [] };
  for (const state of states) {
    for (const operation of CARRIER_OPERATIONS) {
      for (const measure of CENSUS_MEASURES) {
        const observation = observationAtOrBefore(view.history(fmcsaCensusSeries(measure, state, operation), date), date);
        if (!observation || observation.observedOn !== date) return undefined;
        totals.total[measure] += observation.value;
        totals.byOperation[operation][measure] += observation.value;
        totals.observations.push(observation);
      }
    }
  }
  return totals;
}

/** The newest census and the newest one at least `months` older, for the area's change in power units. */
export function latestCensusPair(view: ReferenceView, states: readonly StateCode[], months: number) {
  const dates = censusDates(view);
  const latestDate = dates.at(-1);
  if (!latestDate) return { latest: undefined, earlier: undefined };
  const cutoff = shiftDate(latestDate, { months: -months });
  const earlierDate = dates.filter((date) => date <= cutoff).at(-1);
  return {
    latest: censusTotalsOn(view, states, latestDate),
    earlier: earlierDate === undefined ? undefined : censusTotalsOn(view, states, earlierDate),
  };
}
