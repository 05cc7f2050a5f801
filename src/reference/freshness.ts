/**
 * How current each stored series is: its newest observation and when that was published, the
 * cadence it is expected at, the day the next figure is due (the rule's publication date of the next
 * observation), and whether it is overdue (due date plus the series' grace days has passed).
 * Shown by `waybill data status`, exported as /metrics gauges and on the dashboard's admin page.
 */
import { DAY_MS, daysBetween, utcDateOf } from "../dates.ts";
import { type Cadence, seriesRule } from "./catalog.ts";
import { seriesTitle } from "./series-titles.ts";
import { addStep } from "./snapshot/format.ts";
import type { SeriesSummary } from "./store.ts";

export interface SeriesFreshness {
  seriesId: string;
  title: string;
  family: string;
  unit: string;
  cadence: Cadence;
  first: string;
  latest: string;
  latestValue: number;
  publishedOn: string;
  observations: number;
  /** Whole days from the newest observation's date to today. */
  ageDays: number;
  /** When the next figure should be public; null for irregular series. */
  nextDue: string | null;
  overdue: boolean;
}

function nextObservation(latest: string, cadence: Cadence): string | null {
  switch (cadence) {
    case "daily":
      return utcDateOf(Date.parse(`${latest}T00:00:00Z`) + DAY_MS);
    case "weekly":
      return addStep(latest, "week", 1);
    case "monthly":
      return addStep(latest, "month", 1);
    case "annual":
      return addStep(latest, "month", 12);
    default:
      return null;
  }
}

export function seriesFreshness(summaries: readonly SeriesSummary[], today: string): SeriesFreshness[] {
  return summaries
    .map((s): SeriesFreshness | undefined => {
      const rule = seriesRule(s.seriesId);
      if (!rule) return undefined;
      const next = nextObservation(s.latest, rule.cadence);
      const nextDue = next ? rule.published(next) : null;
      const overdue = nextDue !== null && daysBetween(nextDue, today) > rule.graceDays;
      return {
        seriesId: s.seriesId,
        title: seriesTitle(s.seriesId),
        family: rule.family,
        unit: rule.unit,
        cadence: rule.cadence,
        first: s.first,
        latest: s.latest,
        latestValue: s.latestValue,
        publishedOn: s.latestPublishedOn,
        observations: s.observations,
        ageDays: daysBetween(s.latest, today),
        nextDue,
        overdue,
      };
    })
    .filter((s): s is SeriesFreshness => s !== undefined)
    .sort((a, b) => a.seriesId.localeCompare(b.seriesId));
}
