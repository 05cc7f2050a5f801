import type { Store } from "../db/client.ts";
import { monthRange } from "../metering/calendar.ts";
import type { TierLimits } from "../metering/limits.ts";
import { dailyCallsBySkill, recentCalls, usageReport } from "../metering/usage-report.ts";
import type { DailyChart } from "../../views/usage/usage-sections.tsx";
import { DAY_MS, utcDateOf } from "../dates.ts";

export const RECENT_CALLS_SHOWN = 50;

/** Every day of the current UTC month on the x axis; per skill called, its answered and its refused calls. */
export async function monthChart(db: Store, accountId: string, now: number): Promise<DailyChart> {
  const { start, end } = monthRange(now);
  const days: string[] = [];
  for (let at = start; at < end; at += DAY_MS) days.push(utcDateOf(at));
  const position = new Map(days.map((day, index) => [day, index]));
  const series = new Map<string, { answered: number[]; refused: number[] }>();
  const emptyMonth = () => new Array<number>(days.length).fill(0);
  for (const row of await dailyCallsBySkill(db, accountId, start, end)) {
    const counts = series.get(row.skill) ?? { answered: emptyMonth(), refused: emptyMonth() };
    const index = position.get(row.day);
    if (index !== undefined) {
      counts.answered[index] = row.answered;
      counts.refused[index] = row.refused;
    }
    series.set(row.skill, counts);
  }
  return { days, series: [...series].map(([skill, counts]) => ({ skill, ...counts })) };
}

/** What the usage page (own or, for an admin, anyone's) shows. */
export async function accountUsage(db: Store, accountId: string, now: number, limits: TierLimits) {
  const report = await usageReport(db, accountId, now, limits);
  return {
    month: report.month,
    used: report.quota.used,
    refused: report.totals.refused,
    perMonth: limits.perMonth,
    chart: await monthChart(db, accountId, now),
    calls: await recentCalls(db, accountId, RECENT_CALLS_SHOWN),
  };
}
