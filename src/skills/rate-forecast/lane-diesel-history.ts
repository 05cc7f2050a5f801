import type { DieselReading } from "../../reference/readings/diesel.ts";
import type { Observation, ReferenceView } from "../../reference/storage/view.ts";

export interface WeeklyPrice {
  date: string;
  value: number;
}

export interface LaneDieselHistory {
  /** Oldest first: the mean of the lane's area prices on each week every area reports. */
  weeks: WeeklyPrice[];
  /** Each area's observations, oldest first, for the factor versions. */
  bySeries: Observation[][];
}

/**
 * The lane's weekly diesel price back to `from`, built the way rate-lookup prices one week: the mean of
 * the areas whose readings it used (after any fallback to a broader area).
 */
export function laneDieselHistory(
  view: ReferenceView,
  readings: readonly DieselReading[],
  from: string,
): LaneDieselHistory {
  const bySeries = readings.map((reading) => view.history(reading.observation.seriesId, from));
  const sums = new Map<string, { total: number; count: number }>();
  for (const history of bySeries) {
    for (const observation of history) {
      const sum = sums.get(observation.observedOn) ?? { total: 0, count: 0 };
      sum.total += observation.value;
      sum.count += 1;
      sums.set(observation.observedOn, sum);
    }
  }
  const weeks = [...sums]
    .filter(([, sum]) => sum.count === bySeries.length)
    .map(([date, sum]) => ({ date, value: sum.total / sum.count }))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return { weeks, bySeries };
}
