import { Backoff } from "../db/backoff.ts";
import { isDatabaseUnreachable } from "../errors.ts";
import type { BatchParticipant } from "../db/group-commit.ts";
import { BatchKeyUse } from "./key-use.ts";
import type { UsageEvent, UsageLog } from "./meter.ts";
import type { UsageWrites } from "./usage-writes.ts";
import { log } from "../ops/log.ts";

export interface UsageLogOptions {
  /** Write buffered refusals at the latest this long after the first one arrived. */
  flushAfterMs?: number;
  /** ...or as soon as this many are waiting. */
  maxBuffered?: number;
}

export interface ClosableUsageLog extends UsageLog {
  /** Write what is buffered and stop the timer (shutdown). */
  close(): Promise<void>;
  /** Writes the keys' last answered call once per batch: join it to the group committer. */
  readonly batch: BatchParticipant;
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
  writes: UsageWrites,
  { flushAfterMs = 250, maxBuffered = 200 }: UsageLogOptions = {},
): ClosableUsageLog {
  let buffered: UsageEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const backoff = new Backoff();
  const keyUse = new BatchKeyUse(writes.setLastAnswered);

  const report = (failed: number, of: number) => {
    if (failed > 0) log.warn("usage_rows_not_written", { failed, of });
  };
  const lost = (error: unknown, rows: number) => log.failure("usage_rows_lost", error, { rows }); // rate-limited: a full disk fails every flush

  const flush = async (): Promise<void> => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (buffered.length === 0) return;
    const events = buffered;
    buffered = [];
    try {
      const failed = await writes.writeRefusals(events);
      backoff.succeeded();
      report(failed, events.length);
    } catch (error) {
      if (isDatabaseUnreachable(error)) keepForLater(error, events);
      else lost(error, events.length);
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
