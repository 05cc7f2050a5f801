import type { Principal } from "../access/principal.ts";
import type { Db, Store } from "../db/client.ts";
import type { LimitsTable } from "./limits.ts";
import type { Admission, FileAdmission, MemoryMeter, Meter, MonthCount, RateWindows } from "./meter.ts";
import { MinuteWindows } from "./minute-window.ts";
import { BatchMonthCounts } from "./month-counts.ts";
import { MonthQuotas, type MonthSlot } from "./month-quota.ts";
import { closestToExhaustion, rateLimitedError, rateLimitHeaders, type WindowStatus } from "./window-status.ts";

export interface MeterOptions<S extends Store = Store> {
  db: S;
  limits: LimitsTable;
}

/**
 * The single-writer limiter of docs/api.md (Limits), for the SQLite file; PostgreSQL's replicas share
 * theirs in the database (postgres-meter.ts; runtime.ts picks one): a sliding minute per key (minute-window.ts) and a calendar month per
 * account (month-quota.ts), both in memory.
 *
 * admit() touches the database only to fill an account's month from monthly_usage the first time it
 * is seen that month (or after invalidate()); a call refused by the minute window never gets that far.
 *
 * How the month mirror stays right when a transaction rolls back: admit() reserves a slot;
 * the answer's transaction runs `admission.commit(tx)`, which counts the call in monthly_usage
 * (once per group-commit batch, month-counts.ts) and moves the slot from reserved to committed; if anything after admit
 * fails (including that transaction, which then rolled back), the pipeline calls release(), and the
 * slot, knowing its state, subtracts from exactly the counter it sits in. bun:sqlite transactions
 * are synchronous, so nothing can read the mirror between commit() and the transaction's end.
 */
export function createMemoryMeter({ db, limits }: MeterOptions<Db>): MemoryMeter {
  const minutes = new MinuteWindows();
  // On a SQLite file the batch's transaction handle is the database itself: counts need no handle.
  const monthCounts = new BatchMonthCounts(db);
  const months = new MonthQuotas((accountId, month) => monthCounts.answered(accountId, month));

  const windows = (principal: Principal, now: number): RateWindows => {
    const tierLimits = limits[principal.tier];
    return {
      minute: minutes.status(principal.keyId, tierLimits.perMinute, now),
      month: months.status(principal.accountId, tierLimits.perMonth, now),
    };
  };

  return {
    peek(principal, now) {
      const { minute, month } = windows(principal, now);
      return rateLimitHeaders(closestToExhaustion(minute, month));
    },

    admit(principal, now) {
      const minute = countedMinute(principal, now);
      return monthAdmission(principal, now, minute);
    },

    countMinute(principal, now) {
      const minute = countedMinute(principal, now);
      const month = months.status(principal.accountId, limits[principal.tier].perMonth, now);
      return rateLimitHeaders(closestToExhaustion(minute, month));
    },

    reserveMonth(principal, now) {
      return monthAdmission(principal, now, minutes.status(principal.keyId, limits[principal.tier].perMinute, now));
    },

    windows,

    batch: monthCounts,

    invalidate() {
      monthCounts.invalidate();
      months.invalidate();
    },

    async close() {},
  };

  function countedMinute(principal: Principal, now: number) {
    const minute = minutes.tryCount(principal.keyId, limits[principal.tier].perMinute, now);
    if (!minute.admitted) throw rateLimitedError(minute.status, now);
    return minute.status;
  }

  /** Reserve one month slot; `minute` is where the minute window stands, for the headers. */
  function monthAdmission(principal: Principal, now: number, minute: WindowStatus) {
    const tierLimits = limits[principal.tier];
    const month = months.tryReserve(principal.accountId, tierLimits.perMonth, now);
    if (!month.slot) throw rateLimitedError(month.status, now);
    const slot: MonthSlot = month.slot;
    return {
      headers: rateLimitHeaders(closestToExhaustion(minute, month.status)),
      release: () => slot.release(),
      commit(): MonthCount {
        const answered = monthCounts.count(slot.accountId, slot.month);
        slot.commit();
        return { month: slot.month, answered, limit: tierLimits.perMonth };
      },
    };
  }
}

/**
 * The file's meter as the pipeline calls it: each answer (or refusal) a promise, the work itself
 * done inside the call, so a call is counted (and a month count committed) when it is made.
 */
export function awaitedMeter(meter: MemoryMeter): Meter {
  const admission = (admitted: FileAdmission): Admission => ({
    headers: admitted.headers,
    release: () => admitted.release(),
    commit: async (tx) => admitted.commit(tx),
  });
  return {
    peek: async (principal, now) => meter.peek(principal, now),
    admit: async (principal, now) => admission(meter.admit(principal, now)),
    windows: async (principal, now) => meter.windows(principal, now),
    countMinute: async (principal, now) => meter.countMinute(principal, now),
    reserveMonth: async (principal, now) => admission(meter.reserveMonth(principal, now)),
    batch: meter.batch,
    invalidate: () => meter.invalidate(),
    close: () => meter.close(),
  };
}
