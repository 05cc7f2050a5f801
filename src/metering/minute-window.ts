import type { WindowStatus } from "./window-status.ts";

export const MINUTE_MS = 60_000;

/**
 * The per-minute limit as a sliding log: per key, the instants of the calls it admitted in the
 * last 60 s. A call is admitted when fewer than `limit` of them are younger than 60 s, so no
 * rolling 60-second span ever holds more than `limit` admitted calls, exactly, at the cost of at
 * most `limit` numbers per active key (200 for enterprise). The weighted two-cell approximation
 * used before let an explorer key (3 a minute) through 5 times within 55 s.
 *
 * A refused call is not logged: a client retrying in a tight loop would otherwise keep itself
 * locked out forever. Every admitted call counts, whatever happens to it later.
 *
 * A clock that steps back never frees capacity early: an entry is stored as no earlier than the
 * newest one before it, so the log stays sorted and ages out no sooner than it would have.
 */
export class MinuteWindows {
  private readonly byKey = new Map<string, number[]>();
  private lastSweepAt = 0;

  /** Count one call if it fits the limit; the status is taken after the decision. */
  tryCount(keyId: string, limit: number, now: number): { admitted: boolean; status: WindowStatus } {
    this.sweepIdle(now);
    const log = this.liveLog(keyId, now);
    const admitted = log.length < limit;
    if (admitted) {
      log.push(Math.max(Math.floor(now), log.at(-1) ?? -Infinity));
      this.byKey.set(keyId, log);
    }
    return { admitted, status: statusOf(log, limit, now) };
  }

  status(keyId: string, limit: number, now: number): WindowStatus {
    return statusOf(this.byKey.get(keyId)?.filter((at) => at > now - MINUTE_MS) ?? [], limit, now);
  }

  get size(): number {
    return this.byKey.size;
  }

  /** The key's log with calls older than 60 s dropped (in place: they never count again). */
  private liveLog(keyId: string, now: number): number[] {
    const log = this.byKey.get(keyId) ?? [];
    let expired = 0;
    while (expired < log.length && log[expired]! <= now - MINUTE_MS) expired += 1;
    if (expired > 0) log.splice(0, expired);
    return log;
  }

  /** Once a minute, drop keys whose newest call is older than 60 s: they are back to a full window. */
  private sweepIdle(now: number): void {
    if (now - this.lastSweepAt < MINUTE_MS && now >= this.lastSweepAt) return;
    this.lastSweepAt = now;
    for (const [keyId, log] of this.byKey) {
      if ((log.at(-1) ?? -Infinity) <= now - MINUTE_MS) this.byKey.delete(keyId);
    }
  }
}

/**
 * `resetAt`: when `remaining` next goes up, i.e. when the call that must age out for one more to
 * fit turns 60 s old (the oldest, unless a lowered limit left more calls in the log than fit);
 * with nothing used, 60 s from now.
 */
function statusOf(log: readonly number[], limit: number, now: number): WindowStatus {
  const remaining = Math.max(0, limit - log.length);
  if (log.length === 0) return { window: "minute", limit, remaining, resetAt: Math.floor(now) + MINUTE_MS };
  const mustAgeOut = log[Math.max(0, log.length - limit)]!;
  return { window: "minute", limit, remaining, resetAt: Math.max(mustAgeOut + MINUTE_MS, Math.floor(now) + 1) };
}
