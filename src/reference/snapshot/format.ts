import { utcDateOf } from "../../dates.ts";
/**
 * The embedded snapshot's file format. Regular series are stored as a start date, a step and the
 * values (null where the series had not started), irregular ones as [date, value] pairs. Each
 * series names the published source its figures were carried over from.
 */
export interface SnapshotSeries {
  id: string;
  title: string;
  unit: string;
  source: string;
  start?: string;
  every?: "week" | "month";
  values?: (number | null)[];
  points?: [string, number][];
}

export interface SnapshotFile {
  version: string;
  built_from: string;
  note: string;
  series: SnapshotSeries[];
}

function addStep(isoDate: string, every: "week" | "month", steps: number): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  if (every === "week") date.setUTCDate(date.getUTCDate() + 7 * steps);
  else date.setUTCMonth(date.getUTCMonth() + steps);
  return utcDateOf(date.getTime());
}

/** Every (date, value) of a snapshot series, oldest first. */
export function* snapshotPoints(series: SnapshotSeries): Generator<[string, number]> {
  if (series.points) yield* series.points;
  if (series.start && series.every && series.values) {
    for (let i = 0; i < series.values.length; i++) {
      const value = series.values[i];
      if (value !== null && value !== undefined) yield [addStep(series.start, series.every, i), value];
    }
  }
}
