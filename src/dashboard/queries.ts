import { eq, max } from "drizzle-orm";
import type { Store } from "../db/client.ts";
import { first } from "../db/transaction.ts";
import type { MonthKey } from "../metering/calendar.ts";

/** A key's last use is the newest usage row it made (the key row is never rewritten per call). */
export async function lastUseOfKey(db: Store, keyId: string): Promise<number | null> {
  const { usageEvents } = db.t;
  return (
    (
      await first(
        db
          .select({ at: max(usageEvents.at) })
          .from(usageEvents)
          .where(eq(usageEvents.keyId, keyId)),
      )
    )?.at ?? null
  );
}

/** Answered calls this month for every account that made any: the admin list's usage column. */
export async function answeredThisMonthByAccount(db: Store, month: MonthKey): Promise<Map<string, number>> {
  const { monthlyUsage } = db.t;
  const rows = await db.select({ accountId: monthlyUsage.accountId, answered: monthlyUsage.answered }).from(monthlyUsage).where(eq(monthlyUsage.month, month));
  return new Map(rows.map((row) => [row.accountId, row.answered]));
}
