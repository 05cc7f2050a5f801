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

export function monthOf(at: number): MonthKey {
  return new Date(at).toISOString().slice(0, 7) as MonthKey;
}

export function monthRange(at: number): MonthRange {
  const date = new Date(at);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  return { month: monthOf(at), start: Date.UTC(year, month, 1), end: Date.UTC(year, month + 1, 1) };
}
