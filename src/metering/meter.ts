import type { Principal } from "../access/principal.ts";
import type { Store } from "../db/client.ts";
import type { BatchParticipant } from "../db/group-commit.ts";
import type { MaybePromise } from "../db/maybe-async.ts";
import type { RateLimitHeaders, WindowStatus } from "./window-status.ts";

/** X-RateLimit-Limit / -Remaining / -Reset for the window closest to exhaustion. */

/** A call let through the minute window and the month quota. */
export interface Admission {
  headers: RateLimitHeaders;
  /** The call was not answered (validation, handler or commit failed): return its reserved month slot. */
  release(): void;
  /**
   * Inside the answer's write transaction: make this call's month count durable. Because it knows
   * which call it counts, a release() after a rolled-back transaction takes back exactly this count.
   * null: counted with its group-commit batch, which also appends any `quota.threshold` event the
   * call reached (PostgreSQL, postgres-month-counts.ts); a count: the caller records the threshold.
   */
  commit(tx: Store): MaybePromise<MonthCount | null>;
}

/** The account's durable count of answered calls for the month, this call included. */
export interface MonthCount {
  month: string;
  answered: number;
  limit: number;
}

/** Both windows of a caller, for the dashboard and GET /v1/usage. */
export interface RateWindows {
  minute: WindowStatus;
  month: WindowStatus;
}

/**
 * Per-minute window per key and calendar-month quota per account (docs/api.md, Limits).
 * On a SQLite file (one writer) every method is synchronous and admit() does no database I/O; on
 * PostgreSQL the replicas share the windows in the database, so the methods return promises
 * (docs/postgresql.md, "Metering across replicas").
 */
export interface Meter {
  /**
   * Current headers without counting anything, for refusals before the limiter (403) and replays.
   * On PostgreSQL peek, admit and windows read the key's row in the same statement and reject with
   * REVOKED_API_KEY once it is revoked anywhere (docs/postgresql.md, "Revocation on the next request").
   */
  peek(principal: Principal, now: number): MaybePromise<RateLimitHeaders>;
  /** Count the call in the minute window, then reserve one month slot; throws (or rejects with) ApiError RATE_LIMITED. */
  admit(principal: Principal, now: number): MaybePromise<Admission>;
  /** Where both windows stand, without counting anything. */
  windows(principal: Principal, now: number): MaybePromise<RateWindows>;
  /**
   * Count a call toward the minute window only (a bid sheet's status and result reads); throws (or
   * rejects with) the minute's RATE_LIMITED. Returns the headers of the window closest to exhaustion.
   */
  countMinute(principal: Principal, now: number): MaybePromise<RateLimitHeaders>;
  /** Reserve one month slot without touching the minute window (one lane of a bid sheet); throws the month's RATE_LIMITED. */
  reserveMonth(principal: Principal, now: number): MaybePromise<Admission>;
  /** Joined to the group committer: the meter writes its month counts once per batch. */
  readonly batch?: BatchParticipant;
  /** The database changed under this process (another process committed): drop the month mirror. */
  invalidate(): void;
  /** Let go of what the meter holds open (PostgreSQL: its admission pool); the caller closes the database. */
  close(): Promise<void>;
}

/** The single-writer meter of a SQLite file: the same contract, answered synchronously from memory. */
export interface MemoryMeter extends Meter {
  peek(principal: Principal, now: number): RateLimitHeaders;
  admit(principal: Principal, now: number): Omit<Admission, "commit"> & { commit(tx: Store): MonthCount };
  windows(principal: Principal, now: number): RateWindows;
  countMinute(principal: Principal, now: number): RateLimitHeaders;
  reserveMonth(principal: Principal, now: number): Omit<Admission, "commit"> & { commit(tx: Store): MonthCount };
}

/** One refused authenticated skill call (feeds the dashboard and GET /v1/usage; an answered call's usage is on its receipt). */
export interface UsageEvent {
  at: number;
  requestId: string;
  accountId: string;
  keyId: string;
  skill: string;
  status: number;
  latencyMs: number;
  receiptId: string | null;
}

export interface UsageLog {
  /**
   * Inside the answer's write transaction: the call made with `keyId` at `at` was answered (its
   * usage itself is carried by its receipt row). Notes the key's last use.
   */
  recordAnswered(tx: Store, keyId: string, at: number): MaybePromise<void>;
  /** Refusals are buffered and written in batches, off the request path. */
  recordRefused(event: UsageEvent): void;
  /** Write whatever is buffered (shutdown, tests). */
  flush(): MaybePromise<void>;
}
