import { and, desc, eq, gte, lt, sql } from "drizzle-orm";
import type { Store } from "../db/client.ts";
import { first } from "../db/transaction.ts";
import { monthRange } from "./calendar.ts";
import type { TierLimits } from "./limits.ts";
import { DAY_MS, utcDateOf } from "../dates.ts";

// PostgreSQL sums integers into numeric, which its driver hands over as text: countsAsNumbers turns them back.
const answeredIn = (db: Store) => sql<number>`coalesce(sum(case when ${db.t.usageEvents.status} between 200 and 299 then 1 else 0 end), 0)`;
const refusedIn = (db: Store) => sql<number>`coalesce(sum(case when ${db.t.usageEvents.status} between 200 and 299 then 0 else 1 end), 0)`;
const countsAsNumbers = <T extends { answered: number; refused: number }>(row: T): T => ({ ...row, answered: Number(row.answered), refused: Number(row.refused) });

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
export async function usageReport(db: Store, accountId: string, now: number, limits: TierLimits): Promise<UsageReport> {
  const { month, start, end } = monthRange(now);
  const { monthlyUsage, usageEvents } = db.t;
  const row = await first(
    db
      .select({ answered: monthlyUsage.answered })
      .from(monthlyUsage)
      .where(and(eq(monthlyUsage.accountId, accountId), eq(monthlyUsage.month, month))),
  );
  const used = row?.answered ?? 0;
  const skills = (
    await db
      .select({ skill: usageEvents.skill, answered: answeredIn(db), refused: refusedIn(db) })
      .from(usageEvents)
      .where(and(eq(usageEvents.accountId, accountId), gte(usageEvents.at, start), lt(usageEvents.at, end)))
      .groupBy(usageEvents.skill)
      .orderBy(usageEvents.skill)
  ).map(countsAsNumbers);
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
export async function dailyCallsBySkill(db: Store, accountId: string, from: number, to: number): Promise<DailySkillCalls[]> {
  const { usageEvents } = db.t;
  // Integer division on both engines (at is an integer column), so a day is whole.
  const dayIndex = sql<number>`${usageEvents.at} / 86400000`;
  const rows = await db
    .select({ dayIndex, skill: usageEvents.skill, answered: answeredIn(db), refused: refusedIn(db) })
    .from(usageEvents)
    .where(and(eq(usageEvents.accountId, accountId), gte(usageEvents.at, from), lt(usageEvents.at, to)))
    .groupBy(dayIndex, usageEvents.skill)
    .orderBy(dayIndex, usageEvents.skill);
  return rows.map(({ dayIndex, ...counts }) => ({ day: utcDateOf(Number(dayIndex) * DAY_MS), ...countsAsNumbers(counts) }));
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

const callColumns = ({ t: { usageEvents, apiKeys } }: Store) => ({
  at: usageEvents.at,
  requestId: usageEvents.requestId,
  skill: usageEvents.skill,
  status: usageEvents.status,
  latencyMs: usageEvents.latencyMs,
  receiptId: usageEvents.receiptId,
  keyDisplayId: apiKeys.displayId,
});

/** The account's latest calls, newest first. */
export function recentCalls(db: Store, accountId: string, limit: number): Promise<RecentCall[]> {
  const { usageEvents, apiKeys } = db.t;
  return db
    .select(callColumns(db))
    .from(usageEvents)
    .innerJoin(apiKeys, eq(apiKeys.id, usageEvents.keyId))
    .where(eq(usageEvents.accountId, accountId))
    .orderBy(desc(usageEvents.at), desc(usageEvents.id))
    .limit(limit);
}

/** Every call of the account in the UTC month containing `now`, oldest first (the usage CSV export). */
export function monthCalls(db: Store, accountId: string, now: number): Promise<RecentCall[]> {
  const { start, end } = monthRange(now);
  const { usageEvents, apiKeys } = db.t;
  return db
    .select(callColumns(db))
    .from(usageEvents)
    .innerJoin(apiKeys, eq(apiKeys.id, usageEvents.keyId))
    .where(and(eq(usageEvents.accountId, accountId), gte(usageEvents.at, start), lt(usageEvents.at, end)))
    .orderBy(usageEvents.at, usageEvents.id);
}
