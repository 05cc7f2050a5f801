/** Calendar dates are `YYYY-MM-DD` strings in UTC; instants are epoch milliseconds. */

export const DAY_MS = 86_400_000;
export const WEEK_MS = 7 * DAY_MS;

/** The day utcDateOf last formatted: an answered call asks for today's date several times. */
let lastDay = { start: Number.NaN, date: "" };

/** The UTC calendar date (`YYYY-MM-DD`) of an instant. */
export function utcDateOf(at: number): string {
  if (!(at >= lastDay.start && at < lastDay.start + DAY_MS)) {
    const start = Math.floor(at / DAY_MS) * DAY_MS;
    lastDay = { start, date: new Date(start).toISOString().slice(0, 10) };
  }
  return lastDay.date;
}

/** Whole days from one calendar date to another (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** `YYYY-MM-DD` naming a day that exists (no 2025-02-30). */
export function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const parsed = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(parsed) && utcDateOf(parsed) === text;
}
