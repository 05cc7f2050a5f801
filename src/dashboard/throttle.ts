/**
 * Failed sign-ins, throttled per email and per client address with exponential backoff
 * (NIST SP 800-63B prefers growing delays to hard lockouts). The first FREE_FAILURES failures
 * cost nothing; each further one doubles the wait, from 1 s up to 15 min. A successful sign-in
 * clears the email's record (not the address's: one address may be guessing many accounts).
 *
 * Kept in memory: a restart forgets the counters, which an attacker cannot trigger, and keeps
 * the database free of writes from unauthenticated traffic. Records fade a day after their last
 * failure.
 */
const FREE_FAILURES = 5;
const BASE_DELAY_MS = 1000;
const MAX_DELAY_MS = 15 * 60 * 1000;
const FORGET_AFTER_MS = 24 * 60 * 60 * 1000;
/** One address may hold many accounts' worth of honest typos (an office behind NAT), so it gets more slack. */
const ADDRESS_FREE_FAILURES = 20;

interface FailureRecord {
  failures: number;
  lastFailureAt: number;
  blockedUntil: number;
}

export type ThrottleSubject = { kind: "email"; value: string } | { kind: "address"; value: string };

export class SignInThrottle {
  private readonly records = new Map<string, FailureRecord>();
  private lastSweepAt = 0;

  /** Milliseconds until any of the subjects may try again; 0 when all may. */
  waitFor(subjects: readonly ThrottleSubject[], now: number): number {
    let wait = 0;
    for (const subject of subjects) {
      const record = this.records.get(keyOf(subject));
      if (record) wait = Math.max(wait, record.blockedUntil - now);
    }
    return Math.max(0, wait);
  }

  recordFailure(subjects: readonly ThrottleSubject[], now: number): void {
    this.forgetStale(now);
    for (const subject of subjects) {
      const key = keyOf(subject);
      const record = this.records.get(key) ?? { failures: 0, lastFailureAt: now, blockedUntil: 0 };
      record.failures += 1;
      record.lastFailureAt = now;
      const excess = record.failures - (subject.kind === "email" ? FREE_FAILURES : ADDRESS_FREE_FAILURES);
      if (excess > 0) record.blockedUntil = now + Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (excess - 1));
      this.records.set(key, record);
    }
  }

  recordSuccess(email: string): void {
    this.records.delete(keyOf({ kind: "email", value: email }));
  }

  private forgetStale(now: number): void {
    if (now - this.lastSweepAt < 60_000) return;
    this.lastSweepAt = now;
    for (const [key, record] of this.records) {
      if (now - record.lastFailureAt > FORGET_AFTER_MS) this.records.delete(key);
    }
  }
}

function keyOf(subject: ThrottleSubject): string {
  return `${subject.kind}:${subject.value.trim().toLowerCase()}`;
}
