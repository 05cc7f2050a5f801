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
  published_on: string | null;
}

/** Import id -> when it was retracted (ms epoch). */
type Retractions = ReadonlyMap<string, number>;

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

/**
 * The version of a date a view sees: the latest fetched by `knownAt`, published by `asOf`, and not
 * from an import retracted by `knownAt` (so a receipt pinned before a retraction still sees it).
 */
function visibleVersion(versions: readonly Observation[], asOf: string, knownAt: number, retractions: Retractions): Observation | undefined {
  for (let i = versions.length - 1; i >= 0; i--) {
    const version = versions[i]!;
    if (version.fetchedAt > knownAt || version.publishedOn > asOf) continue;
    const retractedAt = retractions.get(version.importId);
    if (retractedAt !== undefined && retractedAt <= knownAt) continue;
    return version;
  }
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
      publishedOn: row.published_on ?? row.observed_on,
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
    private readonly retractions: Retractions,
    readonly asOf: string,
    readonly knownAt: number,
    readonly figures: string | undefined,
  ) {}

  private visible(versions: readonly Observation[]): Observation | undefined {
    return visibleVersion(versions, this.asOf, this.knownAt, this.retractions);
  }

  seriesIds(prefix: string): string[] {
    return [...this.index.keys()].filter((id) => id.startsWith(prefix)).sort();
  }

  latest(seriesId: string): Observation | undefined {
    const series = this.index.get(seriesId);
    if (!series) return undefined;
    for (let i = lastAtOrBefore(series.dates, this.asOf); i >= 0; i--) {
      const known = this.visible(series.versions[i]!);
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
      const known = this.visible(series.versions[i]!);
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
  /** Publication date of the newest version of the newest observation. */
  latestPublishedOn: string;
  observations: number;
}

export interface ReferenceStore extends ReferenceData {
  /** Rebuild the in-memory index on next use if observations or retractions were added since it was built; true if so. */
  reload(): boolean;
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
/** Index builds in this process, so each build's figures have a name no other build (of any database) shares. */
let indexBuilds = 0;

export function createReferenceStore(db: Db): ReferenceStore {
  const loadAll = db.$client.prepare<ObservationRow, []>(
    "SELECT series_id, observed_on, value, import_id, fetched_at, published_on FROM observations ORDER BY series_id, observed_on, fetched_at, id",
  );
  const loadRetractions = db.$client.prepare<{ import_id: string; retracted_at: number }, []>("SELECT import_id, retracted_at FROM data_retractions");
  const stateOfTables = db.$client.prepare<{ state: string }, []>(
    "SELECT (SELECT coalesce(max(id), 0) FROM observations) || '/' || (SELECT count(*) FROM data_retractions) AS state",
  );
  let index: Map<string, SeriesIndex> | undefined;
  let retractions: Retractions = new Map();
  let indexedState: string | undefined;
  let build = "";
  /** The latest fetch or retraction time in the index: a view known at or after it sees every version as it stands. */
  let newestStamp = 0;

  function current(): Map<string, SeriesIndex> {
    if (!index) {
      indexedState = stateOfTables.get()?.state;
      const rows = loadAll.all();
      index = buildIndex(rows);
      retractions = new Map(loadRetractions.all().map((row) => [row.import_id, row.retracted_at]));
      build = `figures-${++indexBuilds}`;
      newestStamp = Math.max(0, ...retractions.values());
      for (const row of rows) if (row.fetched_at > newestStamp) newestStamp = row.fetched_at;
    }
    return index;
  }

  return {
    view(asOf, knownAt) {
      const built = current();
      // Past every stamp, knownAt filters nothing: the figures are the build's as of asOf.
      return new IndexedView(built, retractions, asOf, knownAt, knownAt >= newestStamp ? `${build}@${asOf}` : undefined);
    },
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
      if (stateOfTables.get()?.state === indexedState) return false;
      index = undefined;
      return true;
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
          latestPublishedOn: newest.at(-1)!.publishedOn,
          observations: series.versions.reduce((sum, versions) => sum + versions.length, 0),
        };
      }),
  };
}
