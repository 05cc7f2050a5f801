import { sql } from "drizzle-orm";
import type { Principal } from "../access/principal.ts";
import type { Store } from "../db/client.ts";
import { pgRows } from "../db/pg-execute.ts";
import { errors } from "../errors.ts";
import { sidePool, type PostgresStore } from "../db/postgres.ts";
import { monthOf, monthRange, type MonthKey } from "./calendar.ts";
import type { LimitsTable } from "./limits.ts";
import type { Admission, Meter, MonthCount, RateWindows } from "./meter.ts";
import { MINUTE_MS, windowOfInstants } from "./minute-window.ts";
import { MonthQuotas } from "./month-quota.ts";
import { closestToExhaustion, rateLimitedError, rateLimitHeaders, type WindowStatus } from "./window-status.ts";

/**
 * One round trip's view of a caller: the key's admitted instants and the account's answered calls
 * this month. The driver hands bigint array elements over as text: `instants` reads them.
 */
interface Seen {
  /** The key is still unrevoked in the database (false: revoked through another replica or the CLI; nothing written). */
  live?: boolean;
  /** The key's instants after this call was counted, or null when the minute was full (nothing written). */
  counted: (string | number)[] | null;
  /** The key's instants as of the statement's snapshot (null before its first call). */
  seen: (string | number)[] | null;
  answered: number | null;
}

const instants = (column: (string | number)[] | null): number[] => (column ?? []).map(Number);

/**
 * The limiter shared by replicas on PostgreSQL (docs/postgresql.md, "Metering across replicas").
 *
 * Minute: one statement per call, before the handler runs. The key's `minute_windows` row holds the
 * instants of its latest admitted calls (as many as the limit); `INSERT … ON CONFLICT DO UPDATE … WHERE` locks
 * that row and evaluates the limit against its newest committed version (not the statement's
 * snapshot), so replicas admitting for one key take turns on the row and no rolling minute ever
 * holds more than the limit. A refused call writes nothing.
 *
 * Month: the same statement reads the account's answered count, and this process's calls in flight
 * are reserved on top of it (month-quota.ts), which turns most calls that cannot fit away before
 * the handler runs. Exactness comes from the answer's batch transaction: `monthly_usage` is raised
 * only `WHERE answered < limit`; no row back means another replica took the last call, and that
 * write fails alone with the month's 429 (the group commit replays the others).
 */
export function createPostgresMeter({ db: store, limits }: { db: Store; limits: LimitsTable }): Meter {
  const { apiKeys, minuteWindows, monthlyUsage } = store.t;
  // Admissions commit without waiting for the disk: a synchronous commit would cost an fsync per
  // call before its handler runs. An answered call's admission is durable all the same, because
  // its answer's batch commits synchronously later in the same write-ahead log; a database crash
  // can only forget admissions of calls not answered yet (docs/postgresql.md).
  const db = sidePool(store as PostgresStore, { synchronous_commit: "off" });
  const months = new MonthQuotas(() => {
    throw new Error("the PostgreSQL meter observes each month before using it");
  });

  const read = async (principal: Principal, month: MonthKey): Promise<Pick<Seen, "seen" | "answered">> => {
    const [row] = await pgRows<Pick<Seen, "seen" | "answered">>(
      db,
      sql`SELECT (SELECT ${minuteWindows.admitted} FROM ${minuteWindows} WHERE ${minuteWindows.keyId} = ${principal.keyId}) AS seen,
        (SELECT ${monthlyUsage.answered} FROM ${monthlyUsage}
          WHERE ${monthlyUsage.accountId} = ${principal.accountId} AND ${monthlyUsage.month} = ${month}) AS answered`,
    );
    return row!;
  };

  const countMinute = async (principal: Principal, limit: number, now: number, month: MonthKey): Promise<Seen> => {
    const stamp = Math.floor(now);
    const cutoff = stamp - MINUTE_MS;
    // The row keeps the key's newest `limit` instants, oldest first: a call fits when there are fewer,
    // or when the limit-th newest is at least a minute old. Slicing keeps the cost a copy of the row.
    // The key's row is read in the same statement: a revoke that committed anywhere before this call
    // refuses it here, even if this replica has not heard the NOTIFY yet (docs/postgresql.md).
    const [row] = await pgRows<Seen>(
      db,
      sql`WITH live AS (SELECT 1 FROM ${apiKeys} WHERE ${apiKeys.id} = ${principal.keyId} AND ${apiKeys.revokedAt} IS NULL),
        counted AS (
          INSERT INTO minute_windows AS w (key_id, admitted) SELECT ${principal.keyId}, ARRAY[${stamp}::bigint] WHERE EXISTS (SELECT 1 FROM live)
          ON CONFLICT (key_id) DO UPDATE SET admitted =
            w.admitted[greatest(1, cardinality(w.admitted) - ${limit}::int + 2):]
            || greatest(${stamp}::bigint, w.admitted[cardinality(w.admitted)])
          WHERE cardinality(w.admitted) < ${limit}::int OR w.admitted[cardinality(w.admitted) - ${limit}::int + 1] <= ${cutoff}::bigint
          RETURNING w.admitted)
        SELECT EXISTS (SELECT 1 FROM live) AS live, (SELECT admitted FROM counted) AS counted,
          (SELECT ${minuteWindows.admitted} FROM ${minuteWindows} WHERE ${minuteWindows.keyId} = ${principal.keyId}) AS seen,
          (SELECT ${monthlyUsage.answered} FROM ${monthlyUsage}
            WHERE ${monthlyUsage.accountId} = ${principal.accountId} AND ${monthlyUsage.month} = ${month}) AS answered`,
    );
    return row!;
  };

  /**
   * A refusal's window. The snapshot may predate the commit that filled the minute (the statement
   * waited for that row lock): then it is read again, so Retry-After points at a real opening.
   */
  const fullMinute = async (principal: Principal, seen: Seen["seen"], limit: number, now: number, month: MonthKey): Promise<WindowStatus> => {
    const status = windowOfInstants(instants(seen), limit, now);
    if (status.remaining === 0) return status;
    const again = await read(principal, month);
    return { ...windowOfInstants(instants(again.seen), limit, now), remaining: 0 };
  };

  const windowsOf = async (principal: Principal, now: number): Promise<RateWindows> => {
    const tierLimits = limits[principal.tier];
    const { seen, answered } = await read(principal, monthOf(now));
    months.observe(principal.accountId, Number(answered ?? 0), now);
    return {
      minute: windowOfInstants(instants(seen), tierLimits.perMinute, now),
      month: months.status(principal.accountId, tierLimits.perMonth, now),
    };
  };

  return {
    async peek(principal, now) {
      const { minute, month } = await windowsOf(principal, now);
      return rateLimitHeaders(closestToExhaustion(minute, month));
    },

    async admit(principal, now): Promise<Admission> {
      const tierLimits = limits[principal.tier];
      const month = monthOf(now);
      const row = await countMinute(principal, tierLimits.perMinute, now, month);
      if (!row.live) throw errors.revokedKey();
      if (row.counted === null) throw rateLimitedError(await fullMinute(principal, row.seen, tierLimits.perMinute, now, month), now);
      const minute = windowOfInstants(instants(row.counted), tierLimits.perMinute, now);
      months.observe(principal.accountId, Number(row.answered ?? 0), now);
      const reserved = months.tryReserve(principal.accountId, tierLimits.perMonth, now);
      if (!reserved.slot) throw rateLimitedError(reserved.status, now);
      const slot = reserved.slot;
      return {
        headers: rateLimitHeaders(closestToExhaustion(minute, reserved.status)),
        release: () => slot.release(),
        async commit(tx): Promise<MonthCount> {
          const answered = await countAnsweredWithin(tx, slot.accountId, slot.month, tierLimits.perMonth);
          if (answered === undefined) {
            throw rateLimitedError({ window: "month", limit: tierLimits.perMonth, remaining: 0, resetAt: monthRange(now).end }, now);
          }
          slot.commit();
          return { month: slot.month, answered, limit: tierLimits.perMonth };
        },
      };
    },

    windows: windowsOf,

    // Every admission reads the month afresh: there is no mirror to drop.
    invalidate() {},

    close: () => db.$client.close(),
  };
}

/** `answered + 1` unless the month is used up (then undefined): the row lock orders replicas on one account. */
async function countAnsweredWithin(tx: Store, accountId: string, month: MonthKey, limit: number): Promise<number | undefined> {
  const { monthlyUsage } = tx.t;
  const [row] = await tx
    .insert(monthlyUsage)
    .values({ accountId, month, answered: 1 })
    .onConflictDoUpdate({
      target: [monthlyUsage.accountId, monthlyUsage.month],
      set: { answered: sql`${monthlyUsage.answered} + 1` },
      setWhere: sql`${monthlyUsage.answered} < ${limit}`,
    })
    .returning({ answered: monthlyUsage.answered });
  return row?.answered;
}
