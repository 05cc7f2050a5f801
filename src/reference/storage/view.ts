import type { RoadNetwork } from "../roads/network.ts";

/** One stored figure: which series, which date, what value, and which import brought it in. */
export interface Observation {
  seriesId: string;
  observedOn: string; // YYYY-MM-DD
  value: number;
  importId: string;
  fetchedAt: number; // ms epoch
  /** The day the figure was first public; a view as of an earlier day does not see it. */
  publishedOn: string;
}

/**
 * Reference data as it was known at one moment: only observations dated and published on or before
 * `asOf`, imported on or before `knownAt`, and not from an import retracted by `knownAt`. Because observations are append-only, the same
 * (asOf, knownAt) always yields the same figures; that is what makes an answer reproducible.
 */
export interface ReferenceView {
  readonly asOf: string;
  readonly knownAt: number;
  /** The newest observation of a series within the view, if any. */
  latest(seriesId: string): Observation | undefined;
  /** Observations of a series within the view, oldest first, optionally from a date on. */
  history(seriesId: string, from?: string): Observation[];
  /** Every stored series id starting with `prefix` (e.g. all USDA AMS lanes), sorted. */
  seriesIds(prefix: string): string[];
  /** The road network known at `knownAt` (reference/roads); absent, lanes use the embedded one. */
  readonly roads?: RoadNetwork;
  /**
   * A name for the figures this view shows: two views with the same name show the same observations
   * and road network, whatever their `knownAt`. Undefined when the view cannot tell (a view pinned
   * before some stored figure was known), so nothing may be reused across calls on it.
   */
  readonly figures?: string;
}

export interface ReferenceData {
  view(asOf: string, knownAt: number): ReferenceView;
  /** The first and last observation dates over all series (bounds for `as_of`). */
  coverage(): { first: string; last: string } | undefined;
}

/**
 * The same data as seen on an earlier day `asOf` (not after the view's own): figures dated and
 * published by then. Revisions published between the two days are not told apart: a figure revised
 * after `asOf` shows its newer value.
 */
export function earlierView(view: ReferenceView, asOf: string): ReferenceView {
  const visible = (o: Observation) => o.observedOn <= asOf && o.publishedOn <= asOf;
  return {
    asOf,
    knownAt: view.knownAt,
    latest(seriesId) {
      return view.history(seriesId).findLast(visible);
    },
    history: (seriesId, from) => view.history(seriesId, from).filter(visible),
    seriesIds: (prefix) => view.seriesIds(prefix),
  };
}
