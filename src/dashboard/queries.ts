import { eq, max } from "drizzle-orm";
import type { Store } from "../db/client.ts";
import { first } from "../db/transaction.ts";
import type { MonthKey } from "../metering/calendar.ts";

/**
 * A key's last use: its newest answered call, kept on the key's row once per batch
 * (src/metering/key-use.ts), or its newest usage row (a refusal, or an answer from before
 * migration 0008), whichever is later.
 */
export async function lastUseOfKey(db: Store, keyId: string): Promise<number | null> {
  const { usageEvents, apiKeys } = db.t;
  const [answered, usageRow] = await Promise.all([
    first(db.select({ at: apiKeys.lastAnsweredAt }).from(apiKeys).where(eq(apiKeys.id, keyId))),
    first(
      db
        .select({ at: max(usageEvents.at) })
        .from(usageEvents)
        .where(eq(usageEvents.keyId, keyId)),
    ),
  ]);
  const times = [answered?.at, usageRow?.at].filter((at): at is number => at !== null && at !== undefined).map(Number);
  return times.length === 0 ? null : Math.max(...times);
}

/** Answered calls this month for every account that made any: the admin list's usage column. */
export async function answeredThisMonthByAccount(db: Store, month: MonthKey): Promise<Map<string, number>> {
  const { monthlyUsage } = db.t;
  const rows = await db
    .select({ accountId: monthlyUsage.accountId, answered: monthlyUsage.answered })
    .from(monthlyUsage)
    .where(eq(monthlyUsage.month, month));
  return new Map(rows.map((row) => [row.accountId, row.answered]));
}
