import { changeSince, shiftDate, trailingMean, type Change } from "../../reference/series/series-stats.ts";
import type { Observation, ReferenceView } from "../../reference/storage/view.ts";
import { DIESEL_TRENDS_MODEL, type TrendDirection } from "./constants.ts";

const weeksBefore = (date: string, weeks: number) => shiftDate(date, { days: -7 * weeks });

export interface WeeklyChange {
  weeks: number;
  change: Change | undefined;
}

export interface SeriesTrend {
  latest: Observation;
  /** The last `weeks` weeks of prices, oldest first. */
  window: Observation[];
  changes: WeeklyChange[];
  movingAverages: { short: number | undefined; long: number | undefined };
  direction: { value: TrendDirection; spreadPercent: number | undefined };
  /** Every observation the figures above were computed from. */
  used: Observation[];
}

/** RISING / FALLING / FLAT from how far the short moving average sits above or below the long one. */
export function trendDirection(short: number | undefined, long: number | undefined): SeriesTrend["direction"] {
  if (short === undefined || long === undefined) return { value: "INSUFFICIENT_DATA", spreadPercent: undefined };
  const spreadPercent = ((short - long) / long) * 100;
  const { thresholdPercent } = DIESEL_TRENDS_MODEL.direction.value;
  const value = spreadPercent > thresholdPercent ? "RISING" : spreadPercent < -thresholdPercent ? "FALLING" : "FLAT";
  return { value, spreadPercent };
}

/** A weekly series' window, changes, moving averages and direction as of the view; undefined before it starts. */
export function seriesTrend(view: ReferenceView, seriesId: string, weeks: number): SeriesTrend | undefined {
  const latest = view.latest(seriesId);
  if (!latest) return undefined;
  const { changeHorizonsWeeks, movingAverageWeeks } = DIESEL_TRENDS_MODEL;
  const lookbackWeeks = Math.max(weeks, ...changeHorizonsWeeks.value, movingAverageWeeks.value.long);
  // One extra week so the "on or before" base of the longest change is in the history.
  const history = view.history(seriesId, weeksBefore(latest.observedOn, lookbackWeeks + 1));

  const windowStart = weeksBefore(latest.observedOn, weeks - 1);
  const window = history.filter((observation) => observation.observedOn >= windowStart);
  const changes = changeHorizonsWeeks.value.map((horizon) => ({
    weeks: horizon,
    change: changeSince(history, latest, weeksBefore(latest.observedOn, horizon)),
  }));
  const short = trailingMean(history, movingAverageWeeks.value.short);
  const long = trailingMean(history, movingAverageWeeks.value.long);

  const used = [
    ...window,
    ...history.slice(-movingAverageWeeks.value.long),
    ...changes.flatMap(({ change }) => (change ? [change.from] : [])),
  ];
  return { latest, window, changes, movingAverages: { short, long }, direction: trendDirection(short, long), used };
}

/** One region's latest price and its change over a number of weeks. */
export function latestWithChange(
  view: ReferenceView,
  seriesId: string,
  weeks: number,
): { latest: Observation; change: Change | undefined } | undefined {
  const latest = view.latest(seriesId);
  if (!latest) return undefined;
  const base = weeksBefore(latest.observedOn, weeks);
  return { latest, change: changeSince(view.history(seriesId, weeksBefore(base, 1)), latest, base) };
}
