import type { Db } from "../db/client.ts";
import type { Observation, ReferenceData, ReferenceView } from "./view.ts";

/** All versions of one series in memory: distinct dates ascending, and each date's versions by fetch time. */
interface SeriesIndex {
  dates: string[];
  versions: Observation[][];
}

interface ObservationRow {
  series_id: string;
  observed_on: string;
  value: number;
  import_id: string;
  fetched_at: number;
}

/** Index of the last element <= key in a sorted array, or -1. */
function lastAtOrBefore(sorted: readonly string[], key: string): number {
  let low = 0;
  let high = sorted.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (sorted[mid]! <= key) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}

/** The version of a date known at `knownAt`: the latest fetched on or before it. */
function versionKnownAt(versions: readonly Observation[], knownAt: number): Observation | undefined {
  for (let i = versions.length - 1; i >= 0; i--) if (versions[i]!.fetchedAt <= knownAt) return versions[i];
  return undefined;
}

function buildIndex(rows: ObservationRow[]): Map<string, SeriesIndex> {
  const bySeries = new Map<string, SeriesIndex>();
  // Rows arrive ordered by series, date, fetch time, id.
  for (const row of rows) {
    let series = bySeries.get(row.series_id);
    if (!series) {
      series = { dates: [], versions: [] };
      bySeries.set(row.series_id, series);
    }
    const observation: Observation = {
      seriesId: row.series_id,
      observedOn: row.observed_on,
      value: row.value,
      importId: row.import_id,
      fetchedAt: row.fetched_at,
    };
    if (series.dates.at(-1) === row.observed_on) series.versions.at(-1)!.push(observation);
    else {
      series.dates.push(row.observed_on);
      series.versions.push([observation]);
    }
  }
  return bySeries;
}

class IndexedView implements ReferenceView {
  constructor(
    private readonly index: Map<string, SeriesIndex>,
    readonly asOf: string,
    readonly knownAt: number,
  ) {}

  latest(seriesId: string): Observation | undefined {
    const series = this.index.get(seriesId);
    if (!series) return undefined;
    for (let i = lastAtOrBefore(series.dates, this.asOf); i >= 0; i--) {
      const known = versionKnownAt(series.versions[i]!, this.knownAt);
      if (known) return known;
    }
    return undefined;
  }

  history(seriesId: string, from?: string): Observation[] {
    const series = this.index.get(seriesId);
    if (!series) return [];
    const result: Observation[] = [];
    const first = from === undefined ? 0 : lastAtOrBefore(series.dates, from) + (series.dates.includes(from) ? 0 : 1);
    const last = lastAtOrBefore(series.dates, this.asOf);
    for (let i = Math.max(0, first); i <= last; i++) {
      const known = versionKnownAt(series.versions[i]!, this.knownAt);
      if (known) result.push(known);
    }
    return result;
  }
}

export interface SeriesSummary {
  seriesId: string;
  first: string;
  latest: string;
  latestValue: number;
  observations: number;
}

export interface ReferenceStore extends ReferenceData {
  /** Rebuild the in-memory index on next use if observations were added since it was built. */
  reload(): void;
  /** Every series id with its first and newest observation (all imports, no time filter). */
  summary(): SeriesSummary[];
  seriesIds(): string[];
}

/**
 * The read side of the observation table. Everything is loaded into memory once, grouped per series
 * and sorted, so an as-of read is a binary search and costs no database read. Whoever appends calls
 * reload(): this process after loading the snapshot, and the runtime when PRAGMA data_version shows
 * that another process (the CLI's `data import`) committed; reload() then compares the table's
 * highest row id, so a commit that added no observations rebuilds nothing.
 */
export function createReferenceStore(db: Db): ReferenceStore {
  const loadAll = db.$client.prepare<ObservationRow, []>(
    "SELECT series_id, observed_on, value, import_id, fetched_at FROM observations ORDER BY series_id, observed_on, fetched_at, id",
  );
  const highestId = db.$client.prepare<{ id: number | null }, []>("SELECT max(id) AS id FROM observations");
  let index: Map<string, SeriesIndex> | undefined;
  let indexedUpTo: number | null = null;

  function current(): Map<string, SeriesIndex> {
    if (!index) {
      indexedUpTo = highestId.get()?.id ?? null;
      index = buildIndex(loadAll.all());
    }
    return index;
  }

  return {
    view: (asOf, knownAt) => new IndexedView(current(), asOf, knownAt),
    coverage() {
      let first: string | undefined;
      let last: string | undefined;
      for (const series of current().values()) {
        const a = series.dates[0]!;
        const b = series.dates.at(-1)!;
        if (first === undefined || a < first) first = a;
        if (last === undefined || b > last) last = b;
      }
      return first && last ? { first, last } : undefined;
    },
    reload() {
      if ((highestId.get()?.id ?? null) !== indexedUpTo) index = undefined;
    },
    seriesIds: () => [...current().keys()],
    summary: () =>
      [...current().entries()].map(([seriesId, series]) => {
        const newest = series.versions.at(-1)!;
        return {
          seriesId,
          first: series.dates[0]!,
          latest: series.dates.at(-1)!,
          latestValue: newest.at(-1)!.value,
          observations: series.versions.reduce((sum, versions) => sum + versions.length, 0),
        };
      }),
  };
}
