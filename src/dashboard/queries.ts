import { eq, max } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { monthlyUsage, usageEvents } from "../db/schema.ts";
import type { MonthKey } from "../metering/calendar.ts";

/** A key's last use is the newest usage row it made (the key row is never rewritten per call). */
export function lastUseOfKey(db: Db, keyId: string): number | null {
  return (
    db
      .select({ at: max(usageEvents.at) })
      .from(usageEvents)
      .where(eq(usageEvents.keyId, keyId))
      .get()?.at ?? null
  );
}

/** Answered calls this month for every account that made any: the admin list's usage column. */
export function answeredThisMonthByAccount(db: Db, month: MonthKey): Map<string, number> {
  const rows = db.select({ accountId: monthlyUsage.accountId, answered: monthlyUsage.answered }).from(monthlyUsage).where(eq(monthlyUsage.month, month)).all();
  return new Map(rows.map((row) => [row.accountId, row.answered]));
}
