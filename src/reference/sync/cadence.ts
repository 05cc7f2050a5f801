import type { SyncSourceName } from "./sources.ts";

/**
 * When each source publishes, as the times a server checks it (UTC): shortly after the release, and
 * once more a day later for a release a holiday moved. docs/data-sources.md, "Sync schedule".
 */
export type SyncCadence =
  | { every: "week"; weekdays: readonly number[]; hourUtc: number }
  | { every: "month"; days: readonly number[]; hourUtc: number };

export const SYNC_CADENCE: Record<SyncSourceName, SyncCadence> = {
  // Weekly diesel: Monday about 5 p.m. Eastern (21:00–22:00 UTC); Tuesday after a Monday holiday.
  eia: { every: "week", weekdays: [1, 2], hourUtc: 23 },
  // FVWTRK is dated the Tuesday ending its week and posted Tuesday or Wednesday.
  ams: { every: "week", weekdays: [3, 4], hourUtc: 18 },
  // PPIs and industrial production come mid-month, the fed funds rate on the first business day.
  fred: { every: "month", days: [3, 17], hourUtc: 15 },
  // CES on the first Friday of the month (so by the 8th), OEWS once a year in spring.
  bls: { every: "month", days: [8], hourUtc: 15 },
  // The carrier census is refreshed monthly; an unchanged dataset is not read again (fmcsa.ts).
  fmcsa: { every: "month", days: [2], hourUtc: 12 },
};

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** The first check time strictly after `now` (ms epoch). */
export function nextCheckAfter(cadence: SyncCadence, now: number): number {
  const midnight = Math.floor(now / DAY_MS) * DAY_MS;
  for (let day = 0; day <= 62; day++) {
    const at = midnight + day * DAY_MS + cadence.hourUtc * HOUR_MS;
    if (at <= now) continue;
    const date = new Date(at);
    const matches =
      cadence.every === "week" ? cadence.weekdays.includes(date.getUTCDay()) : cadence.days.includes(date.getUTCDate());
    if (matches) return at;
  }
  throw new Error("a cadence with no check day in two months");
}
