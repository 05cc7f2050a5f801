import { asc, count, sql } from "drizzle-orm";
import type { Store } from "../../db/client.ts";
import { readsAtOnce } from "../../db/read-now.ts";
import type { Observation, ReferenceData, ReferenceView } from "./view.ts";

/** All versions of one series in memory: distinct dates ascending, and each date's versions by fetch time. */
interface SeriesIndex {
  dates: string[];
  versions: Observation[][];
}

interface ObservationRow {
  seriesId: string;
  observedOn: string;
  value: number;
  importId: string;
  fetchedAt: number;
  publishedOn: string | null;
}

/** Import id -> when it was retracted (ms epoch). */
type Retractions = ReadonlyMap<string, number>;

/** `array[index]` for an index the caller's loop keeps inside the array. */
function within<T>(array: readonly T[], index: number): T {
  const item = array[index];
  if (item === undefined) throw new Error(`index ${index} is outside an array of ${array.length}`);
  return item;
}

/** The first and last dates of a series and its newest version; buildIndex starts none without a row. */
function endsOf(series: SeriesIndex): { first: string; last: string; newest: Observation } {
  const first = series.dates[0];
  const last = series.dates.at(-1);
  const newest = series.versions.at(-1)?.at(-1);
  if (first === undefined || last === undefined || !newest) throw new Error("a series index without observations");
  return { first, last, newest };
}

/** Index of the last element <= key in a sorted array, or -1. */
function lastAtOrBefore(sorted: readonly string[], key: string): number {
  let low = 0;
  let high = sorted.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (within(sorted, mid) <= key) {
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
function visibleVersion(
  versions: readonly Observation[],
  asOf: string,
  knownAt: number,
  retractions: Retractions,
): Observation | undefined {
  return versions.findLast((version) => {
    if (version.fetchedAt > knownAt || version.publishedOn > asOf) return false;
    const retractedAt = retractions.get(version.importId);
    return retractedAt === undefined || retractedAt > knownAt;
  });
}

function buildIndex(rows: ObservationRow[]): Map<string, SeriesIndex> {
  const bySeries = new Map<string, SeriesIndex>();
  // Rows arrive ordered by series, date, fetch time, id.
  for (const row of rows) {
    let series = bySeries.get(row.seriesId);
    if (!series) {
      series = { dates: [], versions: [] };
      bySeries.set(row.seriesId, series);
    }
    const observation: Observation = { ...row, publishedOn: row.publishedOn ?? row.observedOn };
    // dates and versions grow together, so the newest date's versions are there whenever it matches
    const newestVersions = series.versions.at(-1);
    if (newestVersions && series.dates.at(-1) === row.observedOn) newestVersions.push(observation);
    else {
      series.dates.push(row.observedOn);
      series.versions.push([observation]);
    }
  }
  // Series in code-point order whatever the database's collation (PostgreSQL's may differ from SQLite's).
  return new Map([...bySeries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
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
      const known = this.visible(within(series.versions, i));
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
      const known = this.visible(within(series.versions, i));
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
  /**
   * Read the figures again if observations or retractions were added since they were read; true if
   * so. On SQLite the old figures are dropped before this returns; on PostgreSQL they stay in use
   * until the new ones are read.
   */
  reload(): Promise<boolean>;
  /** Every series id with its first and newest observation (all imports, no time filter). */
  summary(): SeriesSummary[];
  seriesIds(): string[];
}

interface Loaded {
  index: Map<string, SeriesIndex>;
  retractions: Retractions;
  state: string;
  /** This build's name: no other build (of any database) in this process shares it. */
  build: string;
  /** The latest fetch or retraction time in the index: a view known at or after it sees every version as it stands. */
  newestStamp: number;
}

/** Index builds in this process, so each build's figures have a name no other build shares. */
let indexBuilds = 0;

/**
 * The read side of the observation table. Everything is loaded into memory, grouped per series and
 * sorted, so an as-of read is a binary search and costs no database read. Whoever appends calls
 * reload(): this process after loading the snapshot, and the runtime when the change watcher
 * (src/db/changes.ts) shows that another process committed; reload() first compares the table's
 * highest row id and the number of retractions, so a commit that added neither rebuilds nothing.
 * On SQLite the first use loads the figures; on PostgreSQL `await reload()` once before it.
 */
export function createReferenceStore(db: Store): ReferenceStore {
  const { observations: o, dataRetractions: r } = db.t;
  const newestRow = sql<number>`coalesce(max(${o.id}), 0)`.mapWith(Number);
  const newestQuery = () => db.select({ newest: newestRow }).from(o);
  const retractedQuery = () => db.select({ retracted: count() }).from(r);
  const stateOf = (figures: { newest: number }[], retractions: { retracted: number }[]) =>
    `${figures[0]?.newest ?? 0}/${retractions[0]?.retracted ?? 0}`;
  const figuresQuery = () =>
    db
      .select({
        seriesId: o.seriesId,
        observedOn: o.observedOn,
        value: o.value,
        importId: o.importId,
        fetchedAt: o.fetchedAt,
        publishedOn: o.publishedOn,
      })
      .from(o)
      .orderBy(asc(o.seriesId), asc(o.observedOn), asc(o.fetchedAt), asc(o.id));
  const retractionsQuery = () => db.select({ importId: r.importId, retractedAt: r.retractedAt }).from(r);
  /** The SQLite file reads at once, so its figures are read on first use after a change (`current`). */
  const atOnce = readsAtOnce(db);
  let loaded: Loaded | undefined;

  function indexOf(rows: ObservationRow[], retracted: { importId: string; retractedAt: number }[], state: string) {
    const retractions: Retractions = new Map(retracted.map((row) => [row.importId, row.retractedAt]));
    let newestStamp = Math.max(0, ...retractions.values());
    for (const row of rows) if (row.fetchedAt > newestStamp) newestStamp = row.fetchedAt;
    return { index: buildIndex(rows), retractions, state, build: `figures-${++indexBuilds}`, newestStamp };
  }

  /**
   * On SQLite a change only drops the figures, which are read again on first use (synchronously, as
   * before the PostgreSQL port: a store made before an import sees it without a reload); on
   * PostgreSQL a read cannot happen inside a request, so it happens here and the old figures serve
   * until it is done.
   */
  async function reload(): Promise<boolean> {
    if (atOnce) {
      const changed = stateOf(newestQuery().all(), retractedQuery().all()) !== loaded?.state;
      if (changed) loaded = undefined;
      return changed;
    }
    const state = stateOf(await newestQuery(), await retractedQuery());
    if (state === loaded?.state) return false;
    const rows = await figuresQuery();
    loaded = indexOf(rows, await retractionsQuery(), state);
    return true;
  }

  function current(): Loaded {
    if (loaded) return loaded;
    if (!atOnce) throw new Error("the reference figures are still loading: await reload() before the first view");
    const state = stateOf(newestQuery().all(), retractedQuery().all());
    loaded = indexOf(figuresQuery().all(), retractionsQuery().all(), state);
    return loaded;
  }

  return {
    view(asOf, knownAt) {
      const { index, retractions, build, newestStamp } = current();
      // Past every stamp, knownAt filters nothing: the figures are the build's as of asOf.
      return new IndexedView(
        index,
        retractions,
        asOf,
        knownAt,
        knownAt >= newestStamp ? `${build}@${asOf}` : undefined,
      );
    },
    coverage() {
      let first: string | undefined;
      let last: string | undefined;
      for (const series of current().index.values()) {
        const { first: a, last: b } = endsOf(series);
        if (first === undefined || a < first) first = a;
        if (last === undefined || b > last) last = b;
      }
      return first && last ? { first, last } : undefined;
    },
    reload,
    seriesIds: () => [...current().index.keys()],
    summary: () =>
      [...current().index.entries()].map(([seriesId, series]) => {
        const { first, last, newest } = endsOf(series);
        return {
          seriesId,
          first,
          latest: last,
          latestValue: newest.value,
          latestPublishedOn: newest.publishedOn,
          observations: series.versions.reduce((sum, versions) => sum + versions.length, 0),
        };
      }),
  };
}
