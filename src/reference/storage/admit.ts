/**
 * Validation at the door: what may become an observation. Every figure must belong to a series the
 * product uses (others are dropped and counted), be a real date no earlier than the series began and
 * not in the future, lie in the series' plausible range, and agree with any other figure for the
 * same series and date in the same batch. One bad figure refuses the whole batch.
 * The rules per series are in catalog.ts and docs/data-sources.md.
 */
import { isCalendarDate } from "../../dates.ts";
import { seriesRule } from "../series/catalog.ts";

/** One figure read from a file or an API, before it is stored. */
export interface ParsedObservation {
  seriesId: string;
  observedOn: string; // YYYY-MM-DD
  value: number;
  /** The day the source published it, when the source says; otherwise the series' rule dates it. */
  publishedOn?: string;
  /** Where in the source the figure came from ("line 12", "results[3]"), for refusal messages. */
  where?: string;
}

/** A figure ready to store: its series is used and it passed every check. */
export interface AdmittedObservation {
  seriesId: string;
  observedOn: string;
  value: number;
  publishedOn: string;
}

/** A batch refused at the door; `problems` name the source rows. Nothing of the batch was stored. */
export class RefusedDataError extends Error {
  override name = "RefusedDataError";
  constructor(readonly problems: string[]) {
    super(
      `${problems.slice(0, 5).join("; ")}${problems.length > 5 ? `; and ${problems.length - 5} more` : ""}; nothing was imported.`,
    );
  }
}

export interface AdmitOptions {
  /** YYYY-MM-DD of today; figures dated later are refused. Omit for the embedded snapshot, built and checked earlier. */
  today?: string;
}

export interface Admitted {
  rows: AdmittedObservation[];
  /** Figures of series the product does not use, dropped. */
  ignored: number;
  /** The same figure twice in the batch, kept once. */
  repeated: number;
}

export function admitObservations(rows: Iterable<ParsedObservation>, options: AdmitOptions = {}): Admitted {
  const problems: string[] = [];
  const accepted = new Map<string, AdmittedObservation & { where?: string }>();
  let ignored = 0;
  let repeated = 0;
  for (const row of rows) {
    const where = row.where ? `${row.where}: ` : "";
    const rule = seriesRule(row.seriesId);
    if (!rule) {
      ignored++;
      continue;
    }
    const label = `${where}${row.seriesId} ${row.observedOn} = ${row.value}`;
    if (!isCalendarDate(row.observedOn)) problems.push(`${where}${row.seriesId}: '${row.observedOn}' is not a date`);
    else if (!Number.isFinite(row.value)) problems.push(`${label} is not a number`);
    else if (row.value < rule.min || row.value > rule.max)
      problems.push(`${label} is outside ${rule.min}..${rule.max} ${rule.unit}`);
    else if (row.observedOn < rule.firstDate)
      problems.push(`${label} is dated before the series began (${rule.firstDate})`);
    else if (options.today && row.observedOn > options.today) problems.push(`${label} is dated in the future`);
    else if (row.publishedOn !== undefined && (!isCalendarDate(row.publishedOn) || row.publishedOn < row.observedOn)) {
      problems.push(`${label}: publication date '${row.publishedOn}' is not a date on or after the figure's date`);
    } else {
      const key = `${row.seriesId}\u0000${row.observedOn}`;
      const earlier = accepted.get(key);
      if (earlier) {
        if (earlier.value === row.value) repeated++;
        else
          problems.push(
            `${label} conflicts with ${earlier.where ?? "an earlier row"} (${earlier.value}) for the same date`,
          );
        continue;
      }
      let publishedOn = row.publishedOn ?? rule.published(row.observedOn);
      // A rule's publication date is an estimate; a figure in hand today was public by today.
      if (options.today && publishedOn > options.today) publishedOn = options.today;
      accepted.set(key, {
        seriesId: row.seriesId,
        observedOn: row.observedOn,
        value: row.value,
        publishedOn,
        where: row.where,
      });
    }
  }
  if (problems.length > 0) throw new RefusedDataError(problems);
  const admitted = [...accepted.values()].map(({ where: _where, ...observation }) => observation);
  return { rows: admitted, ignored, repeated };
}
