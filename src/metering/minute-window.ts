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
  private readonly byKey = new Map<string, CallLog>();
  private lastSweepAt = 0;

  /** Count one call if it fits the limit; the status is taken after the decision. */
  tryCount(keyId: string, limit: number, now: number): { admitted: boolean; status: WindowStatus } {
    this.sweepIdle(now);
    const log = this.byKey.get(keyId) ?? new CallLog();
    log.dropOlderThan(now - MINUTE_MS);
    const admitted = log.size < limit;
    if (admitted) {
      log.push(Math.max(Math.floor(now), log.newest));
      this.byKey.set(keyId, log);
    }
    return { admitted, status: statusOf(log, limit, now) };
  }

  /** A look that changes nothing: a status asked for a later instant frees nothing early. */
  status(keyId: string, limit: number, now: number): WindowStatus {
    return statusOf(this.byKey.get(keyId)?.youngerThan(now - MINUTE_MS) ?? EMPTY, limit, now);
  }

  get size(): number {
    return this.byKey.size;
  }

  /** Once a minute, drop keys whose newest call is older than 60 s: they are back to a full window. */
  private sweepIdle(now: number): void {
    if (now - this.lastSweepAt < MINUTE_MS && now >= this.lastSweepAt) return;
    this.lastSweepAt = now;
    for (const [keyId, log] of this.byKey) {
      if (log.newest <= now - MINUTE_MS) this.byKey.delete(keyId);
    }
  }
}

/**
 * One key's admitted instants, oldest first. Expired entries are skipped by moving `head` and the
 * array is compacted only once most of it is dead, so admitting a call costs O(1) amortized even
 * when an operator sets a limit of millions a minute (a splice per call was O(limit)).
 */
class CallLog {
  private times: number[] = [];
  private head = 0;

  get size(): number {
    return this.times.length - this.head;
  }

  get newest(): number {
    return this.times.length > this.head ? this.time(this.times.length - 1) : Number.NEGATIVE_INFINITY;
  }

  /** The i-th live entry, oldest first. */
  at(i: number): number {
    return this.time(this.head + i);
  }

  private time(index: number): number {
    const at = this.times[index];
    if (at === undefined) throw new RangeError(`call log: no entry ${index} of ${this.times.length}`);
    return at;
  }

  push(at: number): void {
    this.times.push(at);
  }

  /** The entries after `cutoff`, as a view that shares this log's array (the log itself is unchanged). */
  youngerThan(cutoff: number): CallLog {
    let low = this.head;
    let high = this.times.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.time(middle) <= cutoff) low = middle + 1;
      else high = middle;
    }
    const view = new CallLog();
    view.times = this.times;
    view.head = low;
    return view;
  }

  /** Forget every entry at or before `cutoff`: those calls never count again. */
  dropOlderThan(cutoff: number): void {
    while (this.head < this.times.length && this.time(this.head) <= cutoff) this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.times.length) {
      this.times = this.times.slice(this.head);
      this.head = 0;
    }
  }
}

const EMPTY = new CallLog();

/**
 * `resetAt`: when `remaining` next goes up, i.e. when the call that must age out for one more to
 * fit turns 60 s old (the oldest, unless a lowered limit left more calls in the log than fit);
 * with nothing used, 60 s from now.
 */
function statusOf(log: CallLog, limit: number, now: number): WindowStatus {
  const remaining = Math.max(0, limit - log.size);
  if (log.size === 0) return { window: "minute", limit, remaining, resetAt: Math.floor(now) + MINUTE_MS };
  // Clamped: with a limit of 0 the newest call is the one to wait for (as in minute-groups.ts), not past the end.
  const mustAgeOut = log.at(Math.min(log.size - 1, Math.max(0, log.size - limit)));
  return { window: "minute", limit, remaining, resetAt: Math.max(mustAgeOut + MINUTE_MS, Math.floor(now) + 1) };
}
