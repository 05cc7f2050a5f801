import { sql, type SQLChunk } from "drizzle-orm";
import type { Principal } from "../access/principal.ts";
import type { Store } from "../db/client.ts";
import { pgRows } from "../db/pg-execute.ts";
import { PgStatement } from "../db/pg-statement.ts";
import { errors } from "../errors.ts";
import { postgresStoreOf, sidePool } from "../db/postgres.ts";
import { monthOf, monthRange, type MonthKey } from "./calendar.ts";
import type { LimitsTable } from "./limits.ts";
import type { Admission, Meter, MonthCount, RateWindows } from "./meter.ts";
import { GROUPED_ABOVE_PER_MINUTE, groupsOfRow, windowOfGroups } from "./minute-groups.ts";
import { MINUTE_MS } from "./minute-window.ts";
import { MonthQuotas } from "./month-quota.ts";
import { PostgresBatchMonthCounts } from "./postgres-month-counts.ts";
import { closestToExhaustion, rateLimitedError, rateLimitHeaders, type WindowStatus } from "./window-status.ts";

/** A minute_windows row as the driver hands it over: bigint elements as text. */
interface RowArrays {
  admitted: (string | number)[] | null;
  calls: (string | number)[] | null;
}

/** One round trip's view of a caller: its key's row and minute, and the account's answered calls this month. */
interface Seen {
  /** The key is still unrevoked in the database (false: revoked through another replica or the CLI; nothing written). */
  live: boolean;
  /** The key's groups as of the statement's snapshot (null before its first call). */
  seen: RowArrays["admitted"];
  seen_calls: RowArrays["calls"];
  answered: number | null;
}

/**
 * The admission's view: as Seen (its groups read only when the minute was full), plus where the
 * key's minute stands after this call was counted: the calls inside it and its oldest group's
 * instant (null: the minute was full, nothing written). Those two are all a counted call's headers
 * need (minute-groups.ts: that group is the one that must leave), so the groups stay in the database.
 */
interface Counted extends Seen {
  counted_used: number | string | null;
  counted_oldest: number | string | null;
}

/** The admission statement's placeholders, in the order its builder takes them. */
const ADMISSION_VALUES = ["keyId", "accountId", "month", "stamp", "cutoff", "limit"] as const;

/**
 * The limiter shared by replicas on PostgreSQL (docs/postgresql.md, "Metering across replicas").
 *
 * Minute: one statement per call, before the handler runs. The key's `minute_windows` row holds
 * its calls of the last minute in groups (minute-groups.ts: one per call up to 60 a minute, one
 * per second above, so at most 61 whatever the limit); `INSERT … ON CONFLICT DO UPDATE … WHERE`
 * locks that row and evaluates the limit against its newest committed version (not the
 * statement's snapshot), so replicas admitting for one key take turns on the row and no rolling
 * minute ever holds more than the limit. A refused call writes nothing.
 *
 * Month: the same statement reads the account's answered count, and this process's calls in flight
 * are reserved on top of it (month-quota.ts), which turns most calls that cannot fit away before
 * the handler runs. Exactness comes from the answer's batch transaction: `monthly_usage` is raised
 * once per batch and account, only as far as the limit (postgres-month-counts.ts); calls another
 * replica's calls left no room for fail alone with the month's 429 (the group commit replays the others).
 *
 * Every statement also reads the key's row, so a key revoked anywhere is refused (REVOKED_API_KEY)
 * before this replica's key index has heard of it, at no extra round trip.
 */
export function createPostgresMeter({ db: store, limits }: { db: Store; limits: LimitsTable }): Meter {
  const { apiKeys, minuteWindows, monthlyUsage } = store.t;
  // Admissions commit without waiting for the disk: a synchronous commit would cost an fsync per
  // call before its handler runs. An answered call's admission is durable all the same, because
  // its answer's batch commits synchronously later in the same write-ahead log; a database crash
  // can only forget admissions of calls not answered yet (docs/postgresql.md).
  const db = sidePool(postgresStoreOf(store), { synchronous_commit: "off" });
  const batch = new PostgresBatchMonthCounts();
  const months = new MonthQuotas(() => {
    throw new Error("the PostgreSQL meter observes each month before using it");
  });

  // Written over what differs by call (a principal's ids, a month), placeholders in the admission's prebuilt text.
  const liveKey = (keyId: SQLChunk) =>
    sql`EXISTS (SELECT 1 FROM ${apiKeys} WHERE ${apiKeys.id} = ${keyId} AND ${apiKeys.revokedAt} IS NULL)`;
  // `when`: the groups are read only where they are used (the admission reads them for a refusal only).
  const seenColumns = (keyId: SQLChunk, accountId: SQLChunk, month: SQLChunk, when = sql`true`) =>
    sql`CASE WHEN ${when} THEN (SELECT ${minuteWindows.admitted} FROM ${minuteWindows} WHERE ${minuteWindows.keyId} = ${keyId}) END AS seen,
      CASE WHEN ${when} THEN (SELECT ${minuteWindows.calls} FROM ${minuteWindows} WHERE ${minuteWindows.keyId} = ${keyId}) END AS seen_calls,
      (SELECT ${monthlyUsage.answered} FROM ${monthlyUsage}
        WHERE ${monthlyUsage.accountId} = ${accountId} AND ${monthlyUsage.month} = ${month}) AS answered`;

  // Groups are oldest first. The call fits when the groups still inside the minute hold fewer calls
  // than the limit; then the groups that left are dropped and the call joins the newest group
  // (same second, limit above GROUPED_ABOVE_PER_MINUTE) or starts one. Its instant is never
  // earlier than the newest before it, so the row stays sorted whatever the replicas' clocks.
  // An instant without a count (appended by a replica of the release before groups) is one call.
  // The key's row is read in the same statement: a revoke that committed anywhere before this call
  // refuses it here, even if this replica has not heard the NOTIFY yet (docs/postgresql.md).
  // Its text is built once (pg-statement.ts): drizzle building it cost more CPU than running it.
  const admission = new PgStatement(() => {
    const [keyId, accountId, month, stamp, cutoff, limit] = ADMISSION_VALUES.map((name) => sql.placeholder(name));
    return sql`WITH live AS (SELECT ${liveKey(keyId)} AS yes),
        counted AS (
          INSERT INTO minute_windows AS w (key_id, admitted, calls)
            SELECT ${keyId}, ARRAY[${stamp}::bigint], ARRAY[1] WHERE (SELECT yes FROM live)
          ON CONFLICT (key_id) DO UPDATE SET (admitted, calls) = (
            SELECT CASE WHEN joins THEN w.admitted[keep_from : newest - 1] ELSE w.admitted[keep_from:] END || at,
                   CASE WHEN joins THEN w.calls[keep_from : newest - 1] || (w.calls[newest] + 1) ELSE w.calls[keep_from:] || 1 END
            FROM (SELECT newest, keep_from, at, ${limit}::int > ${GROUPED_ABOVE_PER_MINUTE} AND at / 1000 = w.admitted[newest] / 1000 AS joins
              FROM (SELECT cardinality(w.admitted) AS newest,
                  cardinality(w.admitted) + 1 - (SELECT count(*)::int FROM unnest(w.admitted) AS g(at) WHERE at > ${cutoff}::bigint) AS keep_from,
                  greatest(${stamp}::bigint, w.admitted[cardinality(w.admitted)]) AS at) AS place) AS step)
          WHERE (SELECT coalesce(sum(coalesce(n, 1)), 0) FROM unnest(w.admitted, w.calls) AS g(at, n) WHERE at > ${cutoff}::bigint) < ${limit}::int
          RETURNING
            (SELECT sum(coalesce(n, 1)) FROM unnest(w.admitted, w.calls) AS g(at, n) WHERE at > ${cutoff}::bigint) AS used,
            (SELECT min(at) FROM unnest(w.admitted) AS g(at) WHERE at > ${cutoff}::bigint) AS oldest)
        SELECT (SELECT yes FROM live) AS live, (SELECT used FROM counted) AS counted_used, (SELECT oldest FROM counted) AS counted_oldest,
          ${seenColumns(keyId, accountId, month, sql`NOT EXISTS (SELECT 1 FROM counted)`)}`;
  });

  /** The caller's row and windows without counting anything; a key revoked in the database is refused here. */
  const read = async (principal: Principal, month: MonthKey): Promise<Seen> => {
    const { keyId, accountId } = principal;
    const [row] = await pgRows<Seen>(
      db,
      sql`SELECT ${liveKey(keyId)} AS live, ${seenColumns(keyId, accountId, month)}`,
    );
    if (!row) throw new Error("a SELECT without FROM returned no row");
    if (!row.live) throw errors.revokedKey();
    return row;
  };

  const countMinute = async (principal: Principal, limit: number, now: number, month: MonthKey): Promise<Counted> => {
    const stamp = Math.floor(now);
    const values = {
      keyId: principal.keyId,
      accountId: principal.accountId,
      month,
      stamp,
      cutoff: stamp - MINUTE_MS,
      limit,
    };
    const [row] = await admission.rows<Counted>(db, "", values);
    if (!row) throw new Error("the minute-window statement ends in a SELECT without FROM, yet returned no row");
    return row;
  };

  /**
   * A refusal's window. The snapshot may predate the commit that filled the minute (the statement
   * waited for that row lock): then it is read again, so Retry-After points at a real opening.
   */
  const fullMinute = async (
    principal: Principal,
    seen: Seen,
    limit: number,
    now: number,
    month: MonthKey,
  ): Promise<WindowStatus> => {
    const status = windowOfGroups(groupsOfRow(seen.seen, seen.seen_calls), limit, now);
    if (status.remaining === 0) return status;
    const again = await read(principal, month);
    return { ...windowOfGroups(groupsOfRow(again.seen, again.seen_calls), limit, now), remaining: 0 };
  };

  const windowsOf = async (principal: Principal, now: number): Promise<RateWindows> => {
    const tierLimits = limits[principal.tier];
    const row = await read(principal, monthOf(now));
    months.observe(principal.accountId, Number(row.answered ?? 0), now);
    return {
      minute: windowOfGroups(groupsOfRow(row.seen, row.seen_calls), tierLimits.perMinute, now),
      month: months.status(principal.accountId, tierLimits.perMonth, now),
    };
  };

  /** Count the call in the key's minute window (refused when full) and observe the account's month. */
  const countedMinute = async (principal: Principal, now: number): Promise<WindowStatus> => {
    const limit = limits[principal.tier].perMinute;
    const month = monthOf(now);
    const row = await countMinute(principal, limit, now, month);
    if (!row.live) throw errors.revokedKey();
    if (row.counted_used === null) throw rateLimitedError(await fullMinute(principal, row, limit, now, month), now);
    months.observe(principal.accountId, Number(row.answered ?? 0), now);
    // The minute's calls as one group at its oldest instant: the same window the groups give a call that fit.
    return windowOfGroups(groupsOfRow([row.counted_oldest ?? now], [row.counted_used]), limit, now);
  };

  /** Reserve one month slot of an observed month; `minute` is where the minute window stands, for the headers. */
  const monthAdmission = (principal: Principal, now: number, minute: WindowStatus): Admission => {
    const tierLimits = limits[principal.tier];
    const reserved = months.tryReserve(principal.accountId, tierLimits.perMonth, now);
    if (!reserved.slot) throw rateLimitedError(reserved.status, now);
    const slot = reserved.slot;
    return {
      headers: rateLimitHeaders(closestToExhaustion(minute, reserved.status)),
      release: () => slot.release(),
      async commit(tx): Promise<MonthCount | null> {
        if (batch.count(slot.accountId, slot.month, tierLimits.perMonth, now)) {
          slot.commit();
          return null;
        }
        const answered = await countAnsweredWithin(tx, slot.accountId, slot.month, tierLimits.perMonth);
        if (answered === undefined) {
          throw rateLimitedError(
            { window: "month", limit: tierLimits.perMonth, remaining: 0, resetAt: monthRange(now).end },
            now,
          );
        }
        slot.commit();
        return { month: slot.month, answered, limit: tierLimits.perMonth };
      },
    };
  };

  return {
    async peek(principal, now) {
      const { minute, month } = await windowsOf(principal, now);
      return rateLimitHeaders(closestToExhaustion(minute, month));
    },

    async admit(principal, now): Promise<Admission> {
      return monthAdmission(principal, now, await countedMinute(principal, now));
    },

    async countMinute(principal, now) {
      const minute = await countedMinute(principal, now);
      return rateLimitHeaders(
        closestToExhaustion(minute, months.status(principal.accountId, limits[principal.tier].perMonth, now)),
      );
    },

    async reserveMonth(principal, now) {
      const { minute } = await windowsOf(principal, now);
      return monthAdmission(principal, now, minute);
    },

    windows: windowsOf,

    batch,

    // Every admission reads the month afresh: there is no mirror to drop.
    invalidate() {},

    close: () => db.$client.close(),
  };
}

/** `answered + 1` unless the month is used up (then undefined): the row lock orders replicas on one account. */
async function countAnsweredWithin(
  tx: Store,
  accountId: string,
  month: MonthKey,
  limit: number,
): Promise<number | undefined> {
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
