import type { Db } from "../db/client.ts";
import { monthRange } from "../metering/calendar.ts";
import type { TierLimits } from "../metering/limits.ts";
import { dailyCallsBySkill, recentCalls, usageReport } from "../metering/usage-report.ts";
import type { DailyChart } from "../../views/usage/usage-sections.tsx";
import { DAY_MS, utcDateOf } from "../dates.ts";

export const RECENT_CALLS_SHOWN = 50;

/** Every day of the current UTC month on the x axis, one series per skill called (answered + refused). */
export function monthChart(db: Db, accountId: string, now: number): DailyChart {
  const { start, end } = monthRange(now);
  const days: string[] = [];
  for (let at = start; at < end; at += DAY_MS) days.push(utcDateOf(at));
  const position = new Map(days.map((day, index) => [day, index]));
  const series = new Map<string, number[]>();
  for (const row of dailyCallsBySkill(db, accountId, start, end)) {
    const counts = series.get(row.skill) ?? new Array<number>(days.length).fill(0);
    const index = position.get(row.day);
    if (index !== undefined) counts[index] = row.answered + row.refused;
    series.set(row.skill, counts);
  }
  return { days, series: [...series].map(([skill, counts]) => ({ skill, counts })) };
}

/** What the usage page (own or, for an admin, anyone's) shows. */
export function accountUsage(db: Db, accountId: string, now: number, limits: TierLimits) {
  const report = usageReport(db, accountId, now, limits);
  return {
    month: report.month,
    used: report.quota.used,
    perMonth: limits.perMonth,
    chart: monthChart(db, accountId, now),
    calls: recentCalls(db, accountId, RECENT_CALLS_SHOWN),
  };
}
