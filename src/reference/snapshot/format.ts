import { DAY_MS, utcDateOf } from "../../dates.ts";

/**
 * The embedded snapshot's file format. Regular series are stored as a start date, a step, the
 * values (null where the series had not started) and each value's publication lag in days; irregular
 * ones as [date, value, published] triples. Each series names the source its figures were carried from.
 */
export interface SnapshotSeries {
  id: string;
  title: string;
  unit: string;
  /** The repository file the figures were carried in; its text is in SnapshotFile.sources. */
  source: string;
  start?: string;
  every?: "week" | "month";
  values?: (number | null)[];
  /** Days from each value's date to its publication, parallel to `values`. */
  lags?: (number | null)[];
  points?: [string, number, string][];
}

export interface SnapshotFile {
  version: string;
  built_from: string;
  note: string;
  /** Per carried file: the source, license and publication rule it names. */
  sources: Record<string, string>;
  series: SnapshotSeries[];
}

/** The date `steps` weeks or months after `isoDate` (month steps keep the day of month). */
export function addStep(isoDate: string, every: "week" | "month", steps: number): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  if (every === "week") date.setUTCDate(date.getUTCDate() + 7 * steps);
  else date.setUTCMonth(date.getUTCMonth() + steps);
  return utcDateOf(date.getTime());
}

export const daysAfter = (isoDate: string, days: number): string =>
  utcDateOf(Date.parse(`${isoDate}T00:00:00Z`) + days * DAY_MS);

/** Every (date, value, published) of a snapshot series, oldest first. */
export function* snapshotPoints(series: SnapshotSeries): Generator<[string, number, string]> {
  if (series.points) yield* series.points;
  if (series.start && series.every && series.values) {
    for (let i = 0; i < series.values.length; i++) {
      const value = series.values[i];
      if (value === null || value === undefined) continue;
      const date = addStep(series.start, series.every, i);
      yield [date, value, daysAfter(date, series.lags?.[i] ?? 0)];
    }
  }
}
