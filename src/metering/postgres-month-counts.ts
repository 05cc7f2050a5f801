import { sql } from "drizzle-orm";
import type { BatchParticipant, BatchWrites } from "../db/group-commit.ts";
import { WritesRefused } from "../db/group-commit.ts";
import type { Store } from "../db/client.ts";
import { pgRows } from "../db/pg-execute.ts";
import { PgStatement } from "../db/pg-statement.ts";
import { appendEvent } from "../events/log.ts";
import { monthRange, type MonthKey } from "./calendar.ts";
import { QUOTA_THRESHOLDS_PERCENT } from "./quota-threshold.ts";
import { rateLimitedError } from "./window-status.ts";

/** One answered call counted in the open batch. */
interface CountedCall {
  /** Its write's index in the batch (group-commit.ts), to refuse it alone. */
  write: number;
  now: number;
}

/** One account's month in the open batch: its calls in batch order. */
interface BatchMonth {
  accountId: string;
  month: MonthKey;
  limit: number;
  calls: CountedCall[];
}

interface Raised {
  account_id: string;
  month: string;
  answered: number;
}

/**
 * Raise each (account, month) of the batch by its calls, only as far as its limit. Its text is built
 * once per number of months (pg-statement.ts).
 */
const raiseMonths = new PgStatement((_tx, months: number) => {
  const rows = Array.from(
    { length: months },
    (_, i) =>
      sql`(${sql.placeholder(`a${i}`)}, ${sql.placeholder(`m${i}`)}, ${sql.placeholder(`n${i}`)}::int, ${sql.placeholder(`l${i}`)}::int)`,
  );
  return sql`WITH v (account_id, month, n, lim) AS (VALUES ${sql.join(rows, sql`, `)})
    INSERT INTO monthly_usage AS m (account_id, month, answered)
      SELECT account_id, month, n FROM v WHERE n <= lim
    ON CONFLICT (account_id, month) DO UPDATE SET answered = m.answered + excluded.answered
      WHERE m.answered + excluded.answered <=
        (SELECT lim FROM v WHERE v.account_id = m.account_id AND v.month = m.month)
    RETURNING m.account_id, m.month, m.answered`;
});

/**
 * monthly_usage on PostgreSQL, raised once per group-commit batch: one multi-row upsert for every
 * (account, month) the batch answered, instead of one statement per call (docs/postgresql.md,
 * "Round trips and CPU per answer").
 *
 * Exact across replicas: each row is raised only `WHERE answered + the batch's calls <= limit`, under
 * the row lock `ON CONFLICT DO UPDATE` takes, so replicas' batches for one account take turns and
 * none can push a month past its quota. An account missing from the result is at its quota's edge
 * (another replica took calls since this one admitted): its current count is read, the calls that
 * still fit keep their places in batch order, and the others are refused (WritesRefused) with the
 * month's 429; the batch rolls back and runs again without them.
 *
 * The batch also appends the `quota.threshold` events its calls reached: with `answered` after the
 * batch and the account's n calls in it, those calls counted answered − n + 1 … answered.
 */
export class PostgresBatchMonthCounts implements BatchParticipant {
  private readonly months = new Map<string, BatchMonth>();
  private batchOpen = false;
  private writes: BatchWrites = { writing: -1 };

  joined(batch: BatchWrites): void {
    this.writes = batch;
  }

  /** Count one answered call in the open batch; false outside a batch (the caller counts it at once). */
  count(accountId: string, month: MonthKey, limit: number, now: number): boolean {
    if (!this.batchOpen || this.writes.writing < 0) return false;
    const key = `${accountId}\n${month}`;
    let entry = this.months.get(key);
    if (!entry) {
      entry = { accountId, month, limit, calls: [] };
      this.months.set(key, entry);
    }
    entry.calls.push({ write: this.writes.writing, now });
    return true;
  }

  batchStarted(): void {
    this.batchOpen = true;
  }

  async beforeCommit(tx: Store): Promise<void> {
    // In key order, so two batches never wait on each other's month rows crosswise.
    const entries = [...this.months.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, entry]) => entry);
    if (entries.length === 0) return;
    const values: Record<string, unknown> = {};
    for (const [i, entry] of entries.entries()) {
      values[`a${i}`] = entry.accountId;
      values[`m${i}`] = entry.month;
      values[`n${i}`] = entry.calls.length;
      values[`l${i}`] = entry.limit;
    }
    const raised = await raiseMonths.rows<Raised>(tx, entries.length, values);
    const after = new Map(raised.map((row) => [`${row.account_id}\n${row.month}`, Number(row.answered)]));
    const refusals = new Map<number, unknown>();
    for (const [key, entry] of this.months) {
      const answered = after.get(key);
      if (answered === undefined) await this.refuseOverflow(tx, entry, refusals);
      else if (refusals.size === 0) await recordThresholds(tx, entry, answered);
    }
    if (refusals.size > 0) throw new WritesRefused(refusals);
  }

  /** The month cannot take all of the batch's calls: the first that fit stay, the rest are refused. */
  private async refuseOverflow(tx: Store, entry: BatchMonth, refusals: Map<number, unknown>): Promise<void> {
    const { monthlyUsage } = tx.t;
    const [row] = await pgRows<{ answered: number }>(
      tx,
      sql`SELECT ${monthlyUsage.answered} AS answered FROM ${monthlyUsage}
        WHERE ${monthlyUsage.accountId} = ${entry.accountId} AND ${monthlyUsage.month} = ${entry.month}`,
    );
    const room = Math.max(0, entry.limit - Number(row?.answered ?? 0));
    for (const call of entry.calls.slice(room)) {
      const status = { window: "month" as const, limit: entry.limit, remaining: 0, resetAt: monthRange(call.now).end };
      refusals.set(call.write, rateLimitedError(status, call.now));
    }
  }

  afterCommit(): void {
    this.reset();
  }

  afterRollback(): void {
    this.reset();
  }

  private reset(): void {
    this.months.clear();
    this.batchOpen = false;
  }
}

/** Inside the batch: the `quota.threshold` events reached by the account's calls in it, each at its call's time. */
async function recordThresholds(tx: Store, entry: BatchMonth, answered: number): Promise<void> {
  const before = answered - entry.calls.length;
  for (const percent of QUOTA_THRESHOLDS_PERCENT) {
    const threshold = Math.ceil((entry.limit * percent) / 100);
    if (threshold <= before || threshold > answered) continue;
    const call = entry.calls[threshold - before - 1];
    await appendEvent(tx, {
      accountId: entry.accountId,
      type: "quota.threshold",
      payload: { month: entry.month, percent, answered: threshold, limit: entry.limit },
      at: call?.now ?? Date.now(),
    });
  }
}
