import { Backoff } from "../db/backoff.ts";
import type { Db, Store } from "../db/client.ts";
import { isDatabaseUnreachable } from "../errors.ts";
import type { BatchParticipant } from "../db/group-commit.ts";
import type { MaybePromise } from "../db/maybe-async.ts";
import { inTransaction } from "../db/transaction.ts";
import { BatchKeyUse } from "./key-use.ts";
import type { UsageEvent, UsageLog } from "./meter.ts";
import { log } from "../ops/log.ts";

export interface UsageLogOptions {
  /** Write buffered refusals at the latest this long after the first one arrived. */
  flushAfterMs?: number;
  /** ...or as soon as this many are waiting. */
  maxBuffered?: number;
}

export interface ClosableUsageLog extends UsageLog {
  /** Write what is buffered and stop the timer (shutdown). */
  close(): MaybePromise<void>;
  /** Writes the keys' last answered call once per batch: join it to the group committer. */
  readonly batch: BatchParticipant;
}

/** The usage row insert on PostgreSQL; the SQLite file runs INSERT_USAGE, prepared once. */
const insertUsage = (store: Store, rows: UsageEvent[]) => store.insert(store.t.usageEvents).values(rows);

const INSERT_USAGE =
  "INSERT INTO usage_events (at, request_id, account_id, key_id, skill, status, latency_ms, receipt_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";

/** Writes one usage row on the handle given (a transaction of its own, or the database's). */
type WriteRow = (tx: Store, event: UsageEvent) => MaybePromise<void>;

function rowWriter(db: Store): WriteRow {
  if (db.engine === "postgres") {
    return async (tx, event) => {
      await insertUsage(tx, [event]);
    };
  }
  // bun:sqlite's own statement: drizzle's prepared insert maps its placeholders on every run, which
  // cost more than the insert (docs/performance.md, "Rows of an answered call").
  const prepared = (db as Db).$client.prepare<
    unknown,
    [number, string, string, string, string, number, number, string | null]
  >(INSERT_USAGE);
  return (_tx, event) => {
    prepared.run(
      event.at,
      event.requestId,
      event.accountId,
      event.keyId,
      event.skill,
      event.status,
      event.latencyMs,
      event.receiptId,
    );
  };
}

/**
 * An answered call has no usage row: its receipt row carries its usage, in the answer's transaction
 * (docs/performance.md, "One row per answered call"); here it only notes the key's last use, which
 * is written once per batch. Refusals (403, 429, 400…) are only statistics: they wait in memory and
 * go to usage_events in one transaction per batch, off the request path, so a flood of refused calls
 * costs the writer one commit per batch instead of one each.
 */
/** Refusal rows kept in memory while the database cannot be reached; older ones beyond this are dropped (and logged). */
const MAX_KEPT_WHILE_UNREACHABLE = 10_000;

export function createUsageLog(
  db: Store,
  { flushAfterMs = 250, maxBuffered = 200 }: UsageLogOptions = {},
): ClosableUsageLog {
  let buffered: UsageEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const backoff = new Backoff();
  const writeRow = rowWriter(db);
  const keyUse = new BatchKeyUse(db);

  const writeBatch = (events: UsageEvent[]): MaybePromise<number> => {
    if (db.engine === "sqlite")
      return (db as Db).$client.transaction(() =>
        events.reduce((failed, event) => failed + writeAlone(db, event), 0),
      )();
    // PostgreSQL: one statement for the batch; if it fails, a transaction per row (a failed statement aborts its transaction).
    return inTransaction(db, async (tx) => {
      await insertUsage(tx, events);
      return 0;
    }).catch(async (error: unknown) => {
      if (isDatabaseUnreachable(error)) throw error; // kept and written once it answers (below)
      let failed = 0;
      for (const event of events)
        failed += await inTransaction(db, async (tx) => writeRow(tx, event)).then(
          () => 0,
          () => 1,
        );
      return failed;
    });
  };

  /** One bad row (say, a key deleted meanwhile) must not take the batch down with it. */
  const writeAlone = (tx: Store, event: UsageEvent): number => {
    try {
      writeRow(tx, event);
      return 0;
    } catch {
      return 1;
    }
  };

  const report = (failed: number, of: number) => {
    if (failed > 0) log.warn("usage_rows_not_written", { failed, of });
  };
  const lost = (error: unknown, rows: number) => log.failure("usage_rows_lost", error, { rows }); // rate-limited: a full disk fails every flush

  const flush = (): MaybePromise<void> => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (buffered.length === 0) return;
    const events = buffered;
    buffered = [];
    try {
      const failed = writeBatch(events);
      if (typeof failed === "number") return report(failed, events.length);
      return failed.then(
        (count) => {
          backoff.succeeded();
          report(count, events.length);
        },
        (error) => (isDatabaseUnreachable(error) ? keepForLater(error, events) : lost(error, events.length)),
      );
    } catch (error) {
      lost(error, events.length);
    }
  };

  /** The database is away: the rows wait (up to a bound) and are tried again after a back-off. */
  const keepForLater = (error: unknown, events: UsageEvent[]) => {
    const room = Math.max(0, MAX_KEPT_WHILE_UNREACHABLE - buffered.length);
    if (events.length > room) lost(error, events.length - room);
    buffered = [...events.slice(0, room), ...buffered];
    if (timer === undefined) {
      timer = setTimeout(flush, backoff.failed());
      timer.unref?.();
    }
  };

  const schedule = (delayMs: number) => {
    if (timer !== undefined && delayMs > 0) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(flush, delayMs);
    timer.unref?.();
  };

  return {
    recordAnswered: (tx, keyId, at) => keyUse.answered(tx, keyId, at),
    batch: keyUse,
    recordRefused(event) {
      buffered.push(event);
      schedule(buffered.length >= maxBuffered && backoff.ready() ? 0 : flushAfterMs);
    },
    flush,
    close: flush,
  };
}
