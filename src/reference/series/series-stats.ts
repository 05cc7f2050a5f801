import type { Observation } from "../storage/view.ts";
import { utcDateOf } from "../../dates.ts";

/**
 * Arithmetic over one series' history (oldest first, as ReferenceView.history returns it):
 * changes against an earlier date, moving averages and z-scores. Shared by the skills that
 * describe how a series moves (diesel-trends, market-analysis).
 */

export interface Change {
  /** The earlier observation the latest is compared with. */
  from: Observation;
  absolute: number;
  /** Relative change in percent; undefined when the earlier value is zero. */
  percent: number | undefined;
}

export interface ZScore {
  value: number;
  mean: number;
  /** Sample standard deviation (n - 1) of the comparison window. */
  standardDeviation: number;
  observations: number;
}

/** A calendar date moved by whole days or months (UTC); a month shift lands on the month's last day at most. */
export function shiftDate(date: string, by: { days?: number; months?: number }): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const targetMonth = month - 1 + (by.months ?? 0);
  const lastDayOfTarget = new Date(Date.UTC(year, targetMonth + 1, 0)).getUTCDate();
  const shifted = new Date(Date.UTC(year, targetMonth, Math.min(day, lastDayOfTarget) + (by.days ?? 0)));
  return utcDateOf(shifted.getTime());
}

/** The newest observation dated on or before `date`. */
export function observationAtOrBefore(history: readonly Observation[], date: string): Observation | undefined {
  let low = 0;
  let high = history.length - 1;
  let found: Observation | undefined;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const candidate = history[mid];
    if (!candidate) throw new Error(`binary search index ${mid} left the history's ${history.length} entries`);
    if (candidate.observedOn <= date) {
      found = candidate;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}

/** How far `latest` moved since the observation on or before `baseDate`; undefined if the series starts later. */
export function changeSince(
  history: readonly Observation[],
  latest: Observation,
  baseDate: string,
): Change | undefined {
  const from = observationAtOrBefore(history, baseDate);
  if (!from || from.observedOn >= latest.observedOn) return undefined;
  const absolute = latest.value - from.value;
  return { from, absolute, percent: from.value === 0 ? undefined : (absolute / from.value) * 100 };
}

export const mean = (values: readonly number[]): number =>
  values.reduce((sum, value) => sum + value, 0) / values.length;

/** Mean of the last `count` observations; undefined when the history is shorter. */
export function trailingMean(history: readonly Observation[], count: number): number | undefined {
  if (history.length < count) return undefined;
  return mean(history.slice(-count).map((observation) => observation.value));
}

/** How many sample standard deviations `value` lies from the sample's mean; undefined without spread. */
export function zScore(value: number, sample: readonly number[]): ZScore | undefined {
  if (sample.length < 2) return undefined;
  const average = mean(sample);
  const variance = sample.reduce((sum, x) => sum + (x - average) ** 2, 0) / (sample.length - 1);
  const standardDeviation = Math.sqrt(variance);
  if (standardDeviation === 0) return undefined;
  return {
    value: (value - average) / standardDeviation,
    mean: average,
    standardDeviation,
    observations: sample.length,
  };
}

/** The p-quantile (0..1) of ascending values, interpolating linearly between order statistics (Hyndman-Fan type 7). */
export function quantile(ascending: ArrayLike<number>, p: number): number {
  if (ascending.length === 0) throw new Error("quantile of an empty sample");
  const position = (ascending.length - 1) * p;
  const below = Math.floor(position);
  const above = Math.min(below + 1, ascending.length - 1);
  const low = ascending[below];
  const high = ascending[above];
  if (low === undefined || high === undefined) throw new Error(`quantile ${p} lies outside the sample`);
  return low + (high - low) * (position - below);
}
