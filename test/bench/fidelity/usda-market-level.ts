/**
 * The market-level lever, measured (docs/rate-model.md, "What limits it"): a USDA reefer rate index built from the
 * FVWTRK reports alone, and what scaling the cost basis by it would do to the held-out weeks.
 *
 * Index of a report = median over its lanes of (the lane's midpoint / the same lane's base midpoint), the base being the
 * geometric mean of the lane's midpoints over fixed base weeks (the fit weeks; a lane with no base has no say). A
 * lane-week is scaled by index(the last report published before its week) / the base weeks' mean index, in logs, so
 * the factor is 1 at the level the model was fitted at. Only reports the caller passes are seen: the caller reads them
 * from a view as of the day before the week, so nothing published in or after the week leaks in.
 */
import { median } from "./fit-lane-balance.ts";
import { defined } from "../../support/defined.ts";

export interface ReportLane {
  week: string;
  district: string;
  destination: string;
  low: number;
  high: number;
}

const laneKey = (lane: ReportLane) => `${lane.district}\u0000${lane.destination}`;
const midpoint = (lane: ReportLane) => (lane.low + lane.high) / 2;
const meanOf = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

/** The index of every report among `lanes`, by report week (value 1 = the base weeks' level for the median lane). */
export function reeferRateIndex(lanes: readonly ReportLane[], baseWeeks: readonly string[]): Map<string, number> {
  const baseLogs = new Map<string, number[]>();
  for (const lane of lanes) {
    if (baseWeeks.includes(lane.week))
      baseLogs.set(laneKey(lane), [...(baseLogs.get(laneKey(lane)) ?? []), Math.log(midpoint(lane))]);
  }
  const baseLog = new Map([...baseLogs].map(([key, logs]) => [key, meanOf(logs)]));
  const ratios = new Map<string, number[]>();
  for (const lane of lanes) {
    const base = baseLog.get(laneKey(lane));
    if (base !== undefined) ratios.set(lane.week, [...(ratios.get(lane.week) ?? []), Math.log(midpoint(lane)) - base]);
  }
  return new Map(
    [...ratios].sort(([a], [b]) => a.localeCompare(b)).map(([week, logs]) => [week, Math.exp(median(logs))]),
  );
}

export interface MarketLevel {
  /** The report the level is read from: the last one before the week. */
  report: string;
  /** index(report) / the base weeks' geometric-mean index. */
  factor: number;
}

/**
 * The market-level factor for a week from the reports published before it (`visible`), or undefined when no report
 * precedes the week or a base week is missing from what is visible.
 */
export function marketLevelBefore(
  week: string,
  visible: readonly ReportLane[],
  baseWeeks: readonly string[],
): MarketLevel | undefined {
  const index = reeferRateIndex(
    visible.filter((lane) => lane.week < week),
    baseWeeks,
  );
  const report = [...index.keys()].at(-1);
  if (!report || baseWeeks.some((week) => !index.has(week))) return undefined;
  const baseLevel = Math.exp(meanOf(baseWeeks.map((base) => Math.log(defined(index.get(base), "index.get(base)")))));
  return { report, factor: defined(index.get(report), "index.get(report)") / baseLevel };
}
