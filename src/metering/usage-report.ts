import { and, count, desc, eq, gte, isNotNull, lt, ne, sql } from "drizzle-orm";
import type { Store } from "../db/client.ts";
import { first } from "../db/transaction.ts";
import { answeredStatusOf, BATCH_SUBMISSION_CALL } from "./batch-submission.ts";
import { monthRange } from "./calendar.ts";
import type { TierLimits } from "./limits.ts";
import { DAY_MS, utcDateOf } from "../dates.ts";

/*
 * Where the calls are (docs/performance.md, "One row per answered call"): an answered call's usage
 * is carried by its receipt row (request_id set, time known_at, status 200), found through the
 * partial index receipts_account_known; refusals, and answered calls made before migration 0008,
 * are usage_events rows (usage_events_account_at). Every reader adds up both.
 */

// PostgreSQL sums integers into numeric, which its driver hands over as text: countsAsNumbers turns them back.
const answeredIn = (db: Store) =>
  sql<number>`coalesce(sum(case when ${db.t.usageEvents.status} between 200 and 299 then 1 else 0 end), 0)`;
const refusedIn = (db: Store) =>
  sql<number>`coalesce(sum(case when ${db.t.usageEvents.status} between 200 and 299 then 0 else 1 end), 0)`;
const countsAsNumbers = <T extends { answered: number; refused: number }>(row: T): T => ({
  ...row,
  answered: Number(row.answered),
  refused: Number(row.refused),
});

/** A receipt names the call `skill.operation` (src/skills/types.ts, callName); usage is counted by skill. */
const skillOfCall = (call: string) => {
  const dot = call.indexOf(".");
  return dot === -1 ? call : call.slice(0, dot);
};

/** The receipts that carry an answered call's usage, of `accountId`, started in [from, to). */
function answeredReceipts({ t: { receipts } }: Store, accountId: string, from: number, to: number) {
  return and(
    eq(receipts.accountId, accountId),
    isNotNull(receipts.requestId),
    gte(receipts.knownAt, from),
    lt(receipts.knownAt, to),
  );
}

/** The answered receipts that count toward the month: all but bid-sheet submissions (minute only). */
function countedReceipts(db: Store, accountId: string, from: number, to: number) {
  return and(answeredReceipts(db, accountId, from, to), ne(db.t.receipts.skill, BATCH_SUBMISSION_CALL));
}

/** The usage rows of `accountId` in [from, to): refusals, and answered calls from before migration 0008. */
function usageRows({ t: { usageEvents } }: Store, accountId: string, from: number, to: number) {
  return and(eq(usageEvents.accountId, accountId), gte(usageEvents.at, from), lt(usageEvents.at, to));
}

/** Adds rows that share a key (a skill; a day and a skill) into one, in the order the keys come first. */
function addUp<T extends SkillUsage>(rows: T[], keyOf: (row: T) => string): T[] {
  const added = new Map<string, T>();
  for (const row of rows) {
    const key = keyOf(row);
    const seen = added.get(key);
    added.set(
      key,
      seen ? { ...seen, answered: seen.answered + row.answered, refused: seen.refused + row.refused } : row,
    );
  }
  return [...added.values()];
}

const bySkill = (a: SkillUsage, b: SkillUsage) => (a.skill < b.skill ? -1 : a.skill > b.skill ? 1 : 0);

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
  const { monthlyUsage, usageEvents, receipts } = db.t;
  const row = await first(
    db
      .select({ answered: monthlyUsage.answered })
      .from(monthlyUsage)
      .where(and(eq(monthlyUsage.accountId, accountId), eq(monthlyUsage.month, month))),
  );
  const used = row?.answered ?? 0;
  const fromUsageRows = await db
    .select({ skill: usageEvents.skill, answered: answeredIn(db), refused: refusedIn(db) })
    .from(usageEvents)
    .where(usageRows(db, accountId, start, end))
    .groupBy(usageEvents.skill);
  const fromReceipts = await db
    .select({ skill: receipts.skill, answered: count() })
    .from(receipts)
    .where(countedReceipts(db, accountId, start, end))
    .groupBy(receipts.skill);
  const skills = addUp(
    [
      ...fromUsageRows.map(countsAsNumbers),
      ...fromReceipts.map((r) => ({ skill: skillOfCall(r.skill), answered: Number(r.answered), refused: 0 })),
    ],
    (r) => r.skill,
  ).sort(bySkill);
  return {
    month,
    period_start: start / 1000,
    reset: end / 1000,
    quota: {
      per_month: limits.perMonth,
      per_minute: limits.perMinute,
      used,
      remaining: Math.max(0, limits.perMonth - used),
    },
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
export async function dailyCallsBySkill(
  db: Store,
  accountId: string,
  from: number,
  to: number,
): Promise<DailySkillCalls[]> {
  const { usageEvents, receipts } = db.t;
  // Integer division on both engines (the times are integer columns), so a day is whole.
  const usageDay = sql<number>`${usageEvents.at} / 86400000`;
  const receiptDay = sql<number>`${receipts.knownAt} / 86400000`;
  const fromUsageRows = await db
    .select({ dayIndex: usageDay, skill: usageEvents.skill, answered: answeredIn(db), refused: refusedIn(db) })
    .from(usageEvents)
    .where(usageRows(db, accountId, from, to))
    .groupBy(usageDay, usageEvents.skill);
  const fromReceipts = await db
    .select({ dayIndex: receiptDay, skill: receipts.skill, answered: count() })
    .from(receipts)
    .where(countedReceipts(db, accountId, from, to))
    .groupBy(receiptDay, receipts.skill);
  const rows = [
    ...fromUsageRows.map(({ dayIndex, ...counts }) => ({
      day: utcDateOf(Number(dayIndex) * DAY_MS),
      ...countsAsNumbers(counts),
    })),
    ...fromReceipts.map((r) => ({
      day: utcDateOf(Number(r.dayIndex) * DAY_MS),
      skill: skillOfCall(r.skill),
      answered: Number(r.answered),
      refused: 0,
    })),
  ];
  return addUp(rows, (r) => `${r.day} ${r.skill}`).sort((a, b) =>
    a.day < b.day ? -1 : a.day > b.day ? 1 : bySkill(a, b),
  );
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

const usageRowColumns = ({ t: { usageEvents, apiKeys } }: Store) => ({
  at: usageEvents.at,
  requestId: usageEvents.requestId,
  skill: usageEvents.skill,
  status: usageEvents.status,
  latencyMs: usageEvents.latencyMs,
  receiptId: usageEvents.receiptId,
  keyDisplayId: apiKeys.displayId,
});

const receiptColumns = ({ t: { receipts, apiKeys } }: Store) => ({
  at: receipts.knownAt,
  requestId: receipts.requestId,
  skill: receipts.skill,
  latencyMs: receipts.latencyMs,
  receiptId: receipts.id,
  keyDisplayId: apiKeys.displayId,
});

/** A receipt's usage as a call: the columns are set on every receipt the answered-receipts filter selects. */
const answeredCall = (row: {
  at: number | null;
  requestId: string | null;
  skill: string;
  latencyMs: number | null;
  receiptId: string;
  keyDisplayId: string;
}): RecentCall => {
  const { at, requestId, latencyMs } = row;
  if (at === null || requestId === null || latencyMs === null)
    throw new Error(`receipt ${row.receiptId} lacks the usage columns of an answered call`);
  return {
    at,
    requestId,
    skill: row.skill === BATCH_SUBMISSION_CALL ? row.skill : skillOfCall(row.skill),
    status: answeredStatusOf(row.skill),
    latencyMs,
    receiptId: row.receiptId,
    keyDisplayId: row.keyDisplayId,
  };
};

/**
 * Usage rows and answered receipts, each ordered by time (newest first when `newestFirst`), as one
 * list. At the same instant a receipt comes before a usage row in time order, as the rows were
 * written before (refusals wait in memory, so their rows followed the answers of that instant).
 */
function mergeByTime(usage: RecentCall[], answered: RecentCall[], newestFirst: boolean): RecentCall[] {
  const merged: RecentCall[] = [];
  let i = 0;
  let j = 0;
  let call = usage[i];
  let receipt = answered[j];
  while (call && receipt) {
    if (newestFirst ? call.at >= receipt.at : call.at < receipt.at) {
      merged.push(call);
      call = usage[++i];
    } else {
      merged.push(receipt);
      receipt = answered[++j];
    }
  }
  return merged.concat(usage.slice(i), answered.slice(j));
}

/** The account's latest calls, newest first. */
export async function recentCalls(db: Store, accountId: string, limit: number): Promise<RecentCall[]> {
  const { usageEvents, receipts, apiKeys } = db.t;
  const refusedOrOlder = await db
    .select(usageRowColumns(db))
    .from(usageEvents)
    .innerJoin(apiKeys, eq(apiKeys.id, usageEvents.keyId))
    .where(eq(usageEvents.accountId, accountId))
    .orderBy(desc(usageEvents.at), desc(usageEvents.id))
    .limit(limit);
  const answered = await db
    .select(receiptColumns(db))
    .from(receipts)
    .innerJoin(apiKeys, eq(apiKeys.id, receipts.keyId))
    .where(and(eq(receipts.accountId, accountId), isNotNull(receipts.requestId)))
    .orderBy(desc(receipts.knownAt), desc(receipts.seq))
    .limit(limit);
  return mergeByTime(refusedOrOlder, answered.map(answeredCall), true).slice(0, limit);
}

/** Every call of the account in the UTC month containing `now`, oldest first (the usage CSV export). */
export async function monthCalls(db: Store, accountId: string, now: number): Promise<RecentCall[]> {
  const { start, end } = monthRange(now);
  const { usageEvents, receipts, apiKeys } = db.t;
  const refusedOrOlder = await db
    .select(usageRowColumns(db))
    .from(usageEvents)
    .innerJoin(apiKeys, eq(apiKeys.id, usageEvents.keyId))
    .where(usageRows(db, accountId, start, end))
    .orderBy(usageEvents.at, usageEvents.id);
  const answered = await db
    .select(receiptColumns(db))
    .from(receipts)
    .innerJoin(apiKeys, eq(apiKeys.id, receipts.keyId))
    .where(answeredReceipts(db, accountId, start, end))
    .orderBy(receipts.knownAt, receipts.seq);
  return mergeByTime(refusedOrOlder, answered.map(answeredCall), false);
}
