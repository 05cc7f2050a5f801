import type { Principal } from "../access/principal.ts";
import type { MonthCount } from "./meter.ts";
import { appendEvent, type Writer } from "../events/log.ts";

/** Shares of the monthly quota that raise a `quota.threshold` event, once each per month. */
export const QUOTA_THRESHOLDS_PERCENT = [80, 100] as const;

/** The threshold this answered call reached, if any: the count grows by one, so each is met exactly once. */
export function thresholdReached(count: MonthCount): number | undefined {
  return QUOTA_THRESHOLDS_PERCENT.find((percent) => count.answered === Math.ceil((count.limit * percent) / 100));
}

/** Inside the answer's transaction: append `quota.threshold` when this call reached 80 % or 100 % of the month. */
export async function recordQuotaThreshold(
  tx: Writer,
  principal: Principal,
  count: MonthCount,
  at: number,
): Promise<void> {
  const percent = thresholdReached(count);
  if (percent === undefined) return;
  await appendEvent(tx, {
    accountId: principal.accountId,
    type: "quota.threshold",
    payload: { month: count.month, percent, answered: count.answered, limit: count.limit },
    at,
  });
}
