import { createHmac, randomBytes } from "node:crypto";
import { sameSecret } from "./secrets.ts";

/**
 * Password guessing, limited as NIST SP 800-63B asks (docs/operations.md, "Sign-in throttling"):
 * consecutive failures are counted per client address and per account, and past a few free ones
 * each further attempt must wait a time that doubles per failure (exponential backoff, capped).
 *
 * An attempt is counted when it arrives, before its password is hashed, and stays counted as a
 * failure unless it succeeds; so 100 simultaneous guesses are counted as they come and all but the
 * free ones are refused, and no more waiting is imposed than the attempts actually checked justify.
 *
 * An account's owner is not locked out by someone failing on purpose: a browser that has signed in
 * to the account before carries a "known browser" cookie, and its attempts are counted on their own
 * record instead of the account's. A restart forgets every record (the database stays free of
 * writes from unauthenticated traffic, and the browser cookies' key is per process).
 */
export interface BackoffPolicy {
  /** Consecutive failures that cost nothing. */
  freeFailures: number;
  /** The wait after the first failure past the free ones; it doubles with each further failure. */
  baseWaitMs: number;
  maxWaitMs: number;
  /** After this many consecutive failures the record refuses until it is cleared (NIST's limit of 100 per account). */
  lockAfter: number;
}

export const ADDRESS_POLICY: BackoffPolicy = {
  freeFailures: 20,
  baseWaitMs: 1000,
  maxWaitMs: 15 * 60 * 1000,
  lockAfter: Number.POSITIVE_INFINITY,
};
export const ACCOUNT_POLICY: BackoffPolicy = {
  freeFailures: 5,
  baseWaitMs: 1000,
  maxWaitMs: 15 * 60 * 1000,
  lockAfter: 100,
};

/** Records fade this long after their last attempt. */
const FORGET_AFTER_MS = 24 * 60 * 60 * 1000;

/** The wait before the next attempt after this many consecutive failures: none for the free ones, then base, doubling. */
const backoffWait = (failures: number, policy: BackoffPolicy): number => {
  const excess = failures - policy.freeFailures;
  return excess >= 0 ? Math.min(policy.maxWaitMs, policy.baseWaitMs * 2 ** excess) : 0;
};

interface FailureRecord {
  /** Failures so far, attempts still being checked included. */
  failures: number;
  lastAttemptAt: number;
  /** The next attempt is refused before this time. */
  openAt: number;
}

/** Consecutive failures per key under one backoff policy. */
class FailureCounter {
  private readonly records = new Map<string, FailureRecord>();
  private lastSweepAt = 0;

  constructor(private readonly policy: BackoffPolicy) {}

  waitFor(key: string, now: number): number {
    return Math.max(0, (this.records.get(key)?.openAt ?? 0) - now);
  }

  /** Count an attempt as a failure now, before it is checked. */
  reserve(key: string, now: number): void {
    this.sweep(now);
    const record = this.records.get(key) ?? { failures: 0, lastAttemptAt: now, openAt: 0 };
    record.failures += 1;
    record.lastAttemptAt = now;
    record.openAt = now + this.waitAfter(record.failures);
    this.records.set(key, record);
  }

  /** The reserved attempt was not a failure after all (an address signing in to some account). */
  release(key: string): void {
    const record = this.records.get(key);
    if (!record) return;
    record.failures = Math.max(0, record.failures - 1);
    record.openAt = record.lastAttemptAt + this.waitAfter(record.failures);
  }

  clear(key: string): void {
    this.records.delete(key);
  }

  /** Exponential backoff past the free failures; past `lockAfter` failures, no attempt until the record is cleared. */
  private waitAfter(failures: number): number {
    return failures >= this.policy.lockAfter ? Number.POSITIVE_INFINITY : backoffWait(failures, this.policy);
  }

  private sweep(now: number): void {
    if (now - this.lastSweepAt < 60_000) return;
    this.lastSweepAt = now;
    for (const [key, record] of this.records)
      if (now - record.lastAttemptAt > FORGET_AFTER_MS) this.records.delete(key);
  }
}

/** A counted attempt: call `succeeded` when the password was right; otherwise it stays a failure. */
export interface Attempt {
  succeeded(): void;
}

export type Admission = { admitted: true; attempt: Attempt } | { admitted: false; retryAfterMs: number };

export class SignInThrottle {
  private readonly addresses = new FailureCounter(ADDRESS_POLICY);
  private readonly accounts = new FailureCounter(ACCOUNT_POLICY);
  /** A known browser's own record, and a signed-in account checking its current password: the account's rules. */
  private readonly knownBrowsers = new FailureCounter(ACCOUNT_POLICY);
  private readonly passwordChanges = new FailureCounter(ACCOUNT_POLICY);
  private readonly browserKey = randomBytes(32);

  /**
   * Admit a sign-in attempt or say how long to wait. `browserToken` is the known-browser cookie, if
   * any: when it was issued to this email, the attempt counts on that browser's record, not the account's.
   */
  signIn(input: { email: string; address: string; browserToken?: string; now: number }): Admission {
    const email = normalized(input.email);
    const known = input.browserToken !== undefined && sameSecret(input.browserToken, this.browserToken(email));
    return admit(input.now, [
      { counter: this.addresses, key: input.address, onSuccess: "release" },
      known
        ? { counter: this.knownBrowsers, key: email, onSuccess: "clear" }
        : { counter: this.accounts, key: email, onSuccess: "clear" },
    ]);
  }

  /** Admit a signed-in account's check of its current password (changing it), or say how long to wait. */
  passwordChange(input: { accountId: string; address: string; now: number }): Admission {
    return admit(input.now, [
      { counter: this.addresses, key: input.address, onSuccess: "release" },
      { counter: this.passwordChanges, key: input.accountId, onSuccess: "clear" },
    ]);
  }

  /** A new password (set through a one-time link or changed) ends the account's guessing records. */
  forgetAccount(input: { email: string; accountId: string }): void {
    const email = normalized(input.email);
    this.accounts.clear(email);
    this.knownBrowsers.clear(email);
    this.passwordChanges.clear(input.accountId);
  }

  /** The cookie value that marks a browser as having signed in to this email (HMAC under a per-process key). */
  browserToken(email: string): string {
    return createHmac("sha256", this.browserKey).update(normalized(email)).digest("base64url");
  }
}

interface Charge {
  counter: FailureCounter;
  key: string;
  /** On success: forget the record (the account's own), or only take back this attempt (a shared address). */
  onSuccess: "clear" | "release";
}

/** Refused while any record still waits; otherwise counted on every record before the password is checked. */
function admit(now: number, charges: Charge[]): Admission {
  const retryAfterMs = Math.max(...charges.map(({ counter, key }) => counter.waitFor(key, now)));
  if (retryAfterMs > 0) return { admitted: false, retryAfterMs };
  for (const { counter, key } of charges) counter.reserve(key, now);
  let settled = false;
  return {
    admitted: true,
    attempt: {
      succeeded() {
        if (settled) return;
        settled = true;
        for (const { counter, key, onSuccess } of charges) {
          if (onSuccess === "clear") counter.clear(key);
          else counter.release(key);
        }
      },
    },
  };
}

/** Whole seconds for Retry-After, or undefined while the record refuses until it is cleared. */
export const retryAfterSeconds = (ms: number): number | undefined =>
  Number.isFinite(ms) ? Math.max(1, Math.ceil(ms / 1000)) : undefined;

function normalized(email: string): string {
  return email.trim().toLowerCase();
}
