/**
 * Reading single figures for the capacity answer: each one carries its series, date and source, and
 * every observation read is collected so the receipt can name it.
 */
import { daysBetween } from "../../dates.ts";
import { snapshotSeriesInfo } from "../../reference/snapshot/index.ts";
import { changeSince, shiftDate } from "../../reference/series/series-stats.ts";
import type { Observation, ReferenceView } from "../../reference/storage/view.ts";
import { round } from "../kit.ts";

export interface Figure {
  value: number;
  unit: string;
  series_id: string;
  date: string;
  source: string;
}

const SOURCE_BY_PREFIX: [string, string][] = [
  ["FMCSA_CENSUS_", "FMCSA Company Census File, aggregated on import (waybill data import fmcsa)"],
  ["FMCSA_NEW_CARRIERS_", "New USDOT carriers by state, third-party tallies of FMCSA registrations"],
  ["FMCSA_", "FTR tabulation of FMCSA for-hire authority grants and revocations"],
  ["CASS_", "Cass Information Systems, Cass Freight Index"],
  ["ATA_", "American Trucking Associations, For-Hire Truck Tonnage Index"],
  ["OEU", "BLS Occupational Employment and Wage Statistics"],
];

/** Where a series' figures come from: the publisher as the snapshot names it (without its license and release notes), else by id. */
export function sourceOf(seriesId: string): string {
  const known = snapshotSeriesInfo.get(seriesId)?.source;
  if (known) return known.replace(/\. (?:License|Published): [\s\S]*$/, "");
  return SOURCE_BY_PREFIX.find(([prefix]) => seriesId.startsWith(prefix))?.[1] ?? "imported";
}

/** Collects every observation an answer used, for its factor versions. */
export class UsedObservations {
  readonly all: Observation[] = [];
  add(...observations: (Observation | undefined)[]): void {
    for (const observation of observations) if (observation) this.all.push(observation);
  }
}

export function figureOf(observation: Observation, unit: string, used: UsedObservations): Figure {
  used.add(observation);
  return {
    value: observation.value,
    unit,
    series_id: observation.seriesId,
    date: observation.observedOn,
    source: sourceOf(observation.seriesId),
  };
}

/** Observations of a monthly series may sit a few days off their month; a base further off than this does not count. */
const BASE_TOLERANCE_DAYS = 45;

/** The latest value against the one `months` earlier, in percent; undefined without a close enough base. */
export function changeOver(
  view: ReferenceView,
  latest: Observation,
  months: number,
): { percent: number; from: Observation } | undefined {
  const target = shiftDate(latest.observedOn, { months: -months });
  const history = view.history(latest.seriesId, shiftDate(target, { days: -BASE_TOLERANCE_DAYS }));
  const change = changeSince(history, latest, target);
  if (!change || change.percent === undefined) return undefined;
  if (daysBetween(change.from.observedOn, target) > BASE_TOLERANCE_DAYS) return undefined;
  return { percent: round(change.percent, 2), from: change.from };
}

/**
 * The same data as an earlier date saw it: figures dated or published after `asOf` are hidden, the
 * import cut-off (knownAt) is kept. Used for the index's value 3, 6 and 12 months back.
 */
export function earlierView(view: ReferenceView, asOf: string): ReferenceView {
  const seen = (observation: Observation) => observation.observedOn <= asOf && observation.publishedOn <= asOf;
  const history = (seriesId: string, from?: string) => view.history(seriesId, from).filter(seen);
  return {
    asOf,
    knownAt: view.knownAt,
    latest: (seriesId) => history(seriesId).at(-1),
    history,
    seriesIds: (prefix) => view.seriesIds(prefix),
  };
}
