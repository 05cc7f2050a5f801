/**
 * How current each stored series is: its newest observation and when that was published, the
 * cadence it is expected at, the day the next figure is due (the rule's publication date of the next
 * observation), and whether it is overdue (due date plus the series' grace days has passed).
 * Shown by `waybill data status`, exported as /metrics gauges and on the dashboard's admin page.
 */
import { DAY_MS, daysBetween, utcDateOf } from "../../dates.ts";
import { type Cadence, seriesRule } from "./catalog.ts";
import { seriesTitle } from "./series-titles.ts";
import { addStep } from "../snapshot/format.ts";
import type { SeriesSummary } from "../storage/store.ts";

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

/** How far a series' newest figure is behind its own publication cycle on a given day. */
export interface Staleness {
  cadence: Cadence;
  latest: string;
  /** Later figures that were due (published plus the series' grace days) by that day and are not in. */
  missed: number;
  /** When the first missing figure was due. */
  firstDue: string;
}

/** Checked at most this many cycles ahead: enough to reach the confidence penalty's cap. */
const MAX_CYCLES_COUNTED = 60;

/**
 * The figures of `seriesId` after `latest` that should have been public by `asOf`, judged by the
 * series' own cycle and publication rule (docs/data-sources.md): a weekly price a month old has
 * missed four releases; an annual survey whose newest edition is out has missed none, however old
 * its reference date. Undefined for series with no regular cycle or none missing.
 */
export function staleness(seriesId: string, latest: string, asOf: string): Staleness | undefined {
  const rule = seriesRule(seriesId);
  if (!rule) return undefined;
  let missed = 0;
  let firstDue: string | undefined;
  for (let next = nextObservation(latest, rule.cadence); next !== null && missed < MAX_CYCLES_COUNTED; ) {
    const due = rule.published(next);
    if (daysBetween(due, asOf) <= rule.graceDays) break;
    firstDue ??= due;
    missed++;
    next = nextObservation(next, rule.cadence);
  }
  return firstDue === undefined ? undefined : { cadence: rule.cadence, latest, missed, firstDue };
}

const CYCLE_WORD: Record<Cadence, string> = {
  daily: "daily",
  weekly: "weekly",
  monthly: "monthly",
  annual: "annual",
  irregular: "irregular",
};

/** Confidence lost per missed release, and at most: a figure many releases behind is no worse than unknown. */
export const STALENESS_PENALTY = { perMissedRelease: 0.05, max: 0.3 } as const;

/** The confidence penalty for a stale figure, with the reason in words ("diesel price ... is 3 weekly releases behind"). */
export function stalenessPenalty(what: string, stale: Staleness): { amount: number; reason: string } {
  const amount = Math.min(STALENESS_PENALTY.max, STALENESS_PENALTY.perMissedRelease * stale.missed);
  const releases = stale.missed >= MAX_CYCLES_COUNTED ? `${MAX_CYCLES_COUNTED} or more` : String(stale.missed);
  return {
    amount: Math.round(amount * 100) / 100,
    reason: `${what} (${stale.latest}) is ${releases} ${CYCLE_WORD[stale.cadence]} release${stale.missed === 1 ? "" : "s"} behind: the next was due ${stale.firstDue}`,
  };
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

/** The figures behind an answer, as a user sees them: which edition is in and whether newer ones are missing. */
export interface InputFreshness {
  label: string;
  /** The newest figure in, in words: "week of 2026-09-21", "May 2024 edition". */
  newest: string;
  series: number;
  overdue: number;
  /** The earliest day a missing figure was due, when any is overdue. */
  dueSince: string | null;
}

/** The families rate answers rest on, in the order a user reads them, with how each names its newest figure. */
const ANSWER_INPUTS: { family: string; label: string; newest: (latest: string) => string }[] = [
  { family: "EIA weekly diesel", label: "Diesel prices (EIA, weekly)", newest: (d) => `week of ${d}` },
  {
    family: "BLS OEWS truck driver wage",
    label: "Driver wages (BLS OEWS, annual)",
    newest: (d) => `May ${d.slice(0, 4)} edition`,
  },
  {
    family: "USDA AMS reefer truck rates",
    label: "Reefer market rates (USDA FVWTRK, weekly)",
    newest: (d) => `week of ${d}`,
  },
];

/** How current the diesel, wage and USDA figures are, from every series' freshness (seriesFreshness). */
export function answerInputsFreshness(series: readonly SeriesFreshness[]): InputFreshness[] {
  return ANSWER_INPUTS.flatMap(({ family, label, newest }) => {
    const members = series.filter((s) => s.family === family);
    if (members.length === 0) return [];
    const latest = members.reduce((a, s) => (s.latest > a ? s.latest : a), members[0]?.latest ?? "");
    const overdue = members.filter((s) => s.overdue);
    const due = overdue
      .map((s) => s.nextDue)
      .filter((d): d is string => d !== null)
      .sort();
    return [
      { label, newest: newest(latest), series: members.length, overdue: overdue.length, dueSince: due[0] ?? null },
    ];
  });
}
