import { and, desc, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { apiKeys, monthlyUsage, usageEvents } from "../db/schema.ts";
import { monthRange } from "./calendar.ts";
import type { TierLimits } from "./limits.ts";
import { DAY_MS, utcDateOf } from "../dates.ts";

const answered = sql<number>`coalesce(sum(case when ${usageEvents.status} between 200 and 299 then 1 else 0 end), 0)`;
const refused = sql<number>`coalesce(sum(case when ${usageEvents.status} between 200 and 299 then 0 else 1 end), 0)`;

export interface SkillUsage {
  skill: string;
  answered: number;
  refused: number;
}

/** GET /v1/usage: the caller's own month to date. Field names are the API's (snake case). */
export interface UsageReport {
  month: string;
  /** Epoch seconds of 00:00 UTC on the 1st of this month and of the next (when the quota resets). */
  period_start: number;
  reset: number;
  quota: { per_month: number; per_minute: number; used: number; remaining: number };
  totals: { answered: number; refused: number };
  /** Skills called this month, by name. */
  skills: SkillUsage[];
}

/**
 * `quota.used` is monthly_usage, the figure the limiter enforces; the per-skill counts come from
 * the usage rows (refusals reach those in batches, a fraction of a second late).
 */
export function usageReport(db: Db, accountId: string, now: number, limits: TierLimits): UsageReport {
  const { month, start, end } = monthRange(now);
  const used =
    db
      .select({ answered: monthlyUsage.answered })
      .from(monthlyUsage)
      .where(and(eq(monthlyUsage.accountId, accountId), eq(monthlyUsage.month, month)))
      .get()?.answered ?? 0;
  const skills = db
    .select({ skill: usageEvents.skill, answered, refused })
    .from(usageEvents)
    .where(and(eq(usageEvents.accountId, accountId), gte(usageEvents.at, start), lt(usageEvents.at, end)))
    .groupBy(usageEvents.skill)
    .orderBy(usageEvents.skill)
    .all();
  return {
    month,
    period_start: start / 1000,
    reset: end / 1000,
    quota: { per_month: limits.perMonth, per_minute: limits.perMinute, used, remaining: Math.max(0, limits.perMonth - used) },
    totals: {
      answered: skills.reduce((sum, row) => sum + row.answered, 0),
      refused: skills.reduce((sum, row) => sum + row.refused, 0),
    },
    skills,
  };
}

export interface DailySkillCalls extends SkillUsage {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
}

/** Calls per UTC day and skill in [from, to) epoch ms, for the usage chart; days without calls are absent. */
export function dailyCallsBySkill(db: Db, accountId: string, from: number, to: number): DailySkillCalls[] {
  const dayIndex = sql<number>`${usageEvents.at} / 86400000`;
  return db
    .select({ dayIndex, skill: usageEvents.skill, answered, refused })
    .from(usageEvents)
    .where(and(eq(usageEvents.accountId, accountId), gte(usageEvents.at, from), lt(usageEvents.at, to)))
    .groupBy(dayIndex, usageEvents.skill)
    .orderBy(dayIndex, usageEvents.skill)
    .all()
    .map(({ dayIndex, ...counts }) => ({ day: utcDateOf(dayIndex * DAY_MS), ...counts }));
}

export interface RecentCall {
  at: number;
  requestId: string;
  skill: string;
  status: number;
  latencyMs: number;
  receiptId: string | null;
  /** `wbk_` + 8 hex + "…" of the key the call was made with. */
  keyDisplayId: string;
}

/** The account's latest calls, newest first. */
export function recentCalls(db: Db, accountId: string, limit: number): RecentCall[] {
  return db
    .select({
      at: usageEvents.at,
      requestId: usageEvents.requestId,
      skill: usageEvents.skill,
      status: usageEvents.status,
      latencyMs: usageEvents.latencyMs,
      receiptId: usageEvents.receiptId,
      keyDisplayId: apiKeys.displayId,
    })
    .from(usageEvents)
    .innerJoin(apiKeys, eq(apiKeys.id, usageEvents.keyId))
    .where(eq(usageEvents.accountId, accountId))
    .orderBy(desc(usageEvents.at), desc(usageEvents.id))
    .limit(limit)
    .all();
}
