import type { Db } from "../db/client.ts";
import type { UsageEvent, UsageLog } from "./meter.ts";
import { log } from "../ops/log.ts";

const INSERT_EVENT = `INSERT INTO usage_events (at, request_id, account_id, key_id, skill, status, latency_ms, receipt_id)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;

export interface UsageLogOptions {
  /** Write buffered refusals at the latest this long after the first one arrived. */
  flushAfterMs?: number;
  /** ...or as soon as this many are waiting. */
  maxBuffered?: number;
}

export interface ClosableUsageLog extends UsageLog {
  /** Write what is buffered and stop the timer (shutdown). */
  close(): void;
}

function insertEvent(handle: Db, event: UsageEvent): void {
  handle.$client.query(INSERT_EVENT).run(event.at, event.requestId, event.accountId, event.keyId, event.skill, event.status, event.latencyMs, event.receiptId);
}

/**
 * Answered calls are written inside the answer's transaction, so a receipt never exists without its
 * usage row. Refusals (403, 429, 400…) are only statistics: they wait in memory and go to the
 * database in one transaction per batch, off the request path, so a flood of refused calls costs
 * the writer one commit per batch instead of one each.
 */
export function createUsageLog(db: Db, { flushAfterMs = 250, maxBuffered = 200 }: UsageLogOptions = {}): ClosableUsageLog {
  let buffered: UsageEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  const writeBatch = db.$client.transaction((events: UsageEvent[]) => {
    let failed = 0;
    for (const event of events) {
      // One bad row (say, a key deleted meanwhile) must not take the batch down with it.
      try {
        insertEvent(db, event);
      } catch {
        failed += 1;
      }
    }
    return failed;
  });

  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (buffered.length === 0) return;
    const events = buffered;
    buffered = [];
    try {
      const failed = writeBatch(events);
      if (failed > 0) log.warn("usage_rows_not_written", { failed, of: events.length });
    } catch (error) {
      log.failure("usage_rows_lost", error, { rows: events.length }); // rate-limited: a full disk fails every flush
    }
  };

  const schedule = (delayMs: number) => {
    if (timer !== undefined && delayMs > 0) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(flush, delayMs);
    timer.unref?.();
  };

  return {
    recordAnswered(tx, event) {
      insertEvent(tx, event);
    },
    recordRefused(event) {
      buffered.push(event);
      schedule(buffered.length >= maxBuffered ? 0 : flushAfterMs);
    },
    flush,
    close: flush,
  };
}
