import type { Principal } from "../access/principal.ts";
import type { Store } from "../db/client.ts";
import type { BatchParticipant } from "../db/group-commit.ts";
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
  commit(tx: Store): Promise<MonthCount | null>;
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
 * Per-minute window per key and calendar-month quota per account (docs/api.md, Limits), as the
 * pipeline calls it: every answer a promise. On a SQLite file (one writer) the meter is a
 * `MemoryMeter`, answered synchronously from memory with no database I/O in admit(), which
 * `awaitedMeter` hands out (create-meter.ts); on PostgreSQL the replicas share the windows in the
 * database (docs/postgresql.md, "Metering across replicas").
 */
export interface Meter {
  /**
   * Current headers without counting anything, for refusals before the limiter (403) and replays.
   * On PostgreSQL peek, admit and windows read the key's row in the same statement and reject with
   * REVOKED_API_KEY once it is revoked anywhere (docs/postgresql.md, "Revocation on the next request").
   */
  peek(principal: Principal, now: number): Promise<RateLimitHeaders>;
  /** Count the call in the minute window, then reserve one month slot; throws (or rejects with) ApiError RATE_LIMITED. */
  admit(principal: Principal, now: number): Promise<Admission>;
  /** Where both windows stand, without counting anything. */
  windows(principal: Principal, now: number): Promise<RateWindows>;
  /**
   * Count a call toward the minute window only (a bid sheet's status and result reads); throws (or
   * rejects with) the minute's RATE_LIMITED. Returns the headers of the window closest to exhaustion.
   */
  countMinute(principal: Principal, now: number): Promise<RateLimitHeaders>;
  /** Reserve one month slot without touching the minute window (one lane of a bid sheet); throws the month's RATE_LIMITED. */
  reserveMonth(principal: Principal, now: number): Promise<Admission>;
  /** Joined to the group committer: the meter writes its month counts once per batch. */
  readonly batch?: BatchParticipant;
  /** The database changed under this process (another process committed): drop the month mirror. */
  invalidate(): void;
  /** Let go of what the meter holds open (PostgreSQL: its admission pool); the caller closes the database. */
  close(): Promise<void>;
}

/** An admission of the SQLite file's meter: its month count is made durable inside the call. */
export interface FileAdmission extends Omit<Admission, "commit"> {
  commit(tx: Store): MonthCount;
}

/** The single-writer meter of a SQLite file: the same contract, answered synchronously from memory. */
export interface MemoryMeter extends Pick<Meter, "invalidate" | "close"> {
  peek(principal: Principal, now: number): RateLimitHeaders;
  admit(principal: Principal, now: number): FileAdmission;
  windows(principal: Principal, now: number): RateWindows;
  countMinute(principal: Principal, now: number): RateLimitHeaders;
  reserveMonth(principal: Principal, now: number): FileAdmission;
  readonly batch: BatchParticipant;
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
  recordAnswered(tx: Store, keyId: string, at: number): Promise<void>;
  /** Refusals are buffered and written in batches, off the request path. */
  recordRefused(event: UsageEvent): void;
  /** Write whatever is buffered (shutdown, tests). */
  flush(): Promise<void>;
}
