/**
 * Calendar math for the monthly quota: months are calendar months in UTC (`YYYY-MM`), starting at
 * 00:00:00.000 UTC on the 1st. Lengths come from Date.UTC, never from "30 days".
 */

/** A calendar month in UTC, `YYYY-MM`. */
export type MonthKey = string & { readonly __monthKey: unique symbol };

export interface MonthRange {
  month: MonthKey;
  /** First millisecond of the month (inclusive). */
  start: number;
  /** First millisecond of the next month (exclusive): when the quota resets. */
  end: number;
}

/** The month monthOf last named, with its bounds: every metered call asks for the current one. */
let lastMonth = { start: Number.NaN, end: Number.NaN, month: "" as MonthKey };

export function monthOf(at: number): MonthKey {
  if (!(at >= lastMonth.start && at < lastMonth.end)) {
    const first = new Date(at);
    const month = first.toISOString().slice(0, 7) as MonthKey; // throws on an invalid instant, as before
    first.setUTCDate(1);
    const start = first.setUTCHours(0, 0, 0, 0);
    lastMonth = { start, end: first.setUTCMonth(first.getUTCMonth() + 1), month };
  }
  return lastMonth.month;
}

export function monthRange(at: number): MonthRange {
  const date = new Date(at);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  return { month: monthOf(at), start: Date.UTC(year, month, 1), end: Date.UTC(year, month + 1, 1) };
}
