/**
 * Failed sign-ins, throttled without ever locking an account (docs/operations.md, "Sign-in
 * throttling"). Two records, both in memory:
 *
 * - Per client address: the first ADDRESS_FREE_FAILURES failures cost nothing; after that the
 *   address is refused (429) for a wait that doubles from 1 s up to 15 min. This stops one address
 *   guessing, across any number of accounts, and touches only that address.
 * - Per account (email): never refused. After ACCOUNT_FREE_FAILURES failures, every further attempt
 *   on that account, from anywhere, is answered only after a delay that doubles from 0.5 s up to
 *   8 s, which makes guessing one account slow while its owner can still sign in from their own
 *   address (waiting at most 8 s). A successful sign-in clears the account's record.
 *
 * An attacker failing on purpose can therefore slow an account down but not lock its owner out,
 * and can only lock out their own address. A restart forgets the counters (an attacker cannot
 * trigger one), and the database stays free of writes from unauthenticated traffic.
 */
export const ADDRESS_FREE_FAILURES = 20;
export const ADDRESS_BASE_WAIT_MS = 1000;
export const ADDRESS_MAX_WAIT_MS = 15 * 60 * 1000;
export const ACCOUNT_FREE_FAILURES = 5;
export const ACCOUNT_BASE_DELAY_MS = 500;
export const ACCOUNT_MAX_DELAY_MS = 8000;
/** Records fade this long after their last failure. */
const FORGET_AFTER_MS = 24 * 60 * 60 * 1000;

interface FailureRecord {
  failures: number;
  lastFailureAt: number;
}

const backoff = (excess: number, base: number, max: number) =>
  excess > 0 ? Math.min(max, base * 2 ** (excess - 1)) : 0;

export class SignInThrottle {
  private readonly addresses = new Map<string, FailureRecord>();
  private readonly accounts = new Map<string, FailureRecord>();
  private lastSweepAt = 0;

  /** Milliseconds until this address may try again (a 429 meanwhile); 0 when it may. */
  addressWait(address: string, now: number): number {
    const record = this.addresses.get(address);
    if (!record) return 0;
    const until =
      record.lastFailureAt +
      backoff(record.failures - ADDRESS_FREE_FAILURES, ADDRESS_BASE_WAIT_MS, ADDRESS_MAX_WAIT_MS);
    return Math.max(0, until - now);
  }

  /** How long to hold this attempt on the account before checking its password; never a refusal. */
  accountDelay(email: string): number {
    const record = this.accounts.get(normalized(email));
    return record ? backoff(record.failures - ACCOUNT_FREE_FAILURES, ACCOUNT_BASE_DELAY_MS, ACCOUNT_MAX_DELAY_MS) : 0;
  }

  recordFailure(email: string, address: string, now: number): void {
    this.forgetStale(now);
    for (const [records, key] of [
      [this.accounts, normalized(email)],
      [this.addresses, address],
    ] as const) {
      const record = records.get(key) ?? { failures: 0, lastFailureAt: now };
      record.failures += 1;
      record.lastFailureAt = now;
      records.set(key, record);
    }
  }

  recordSuccess(email: string): void {
    this.accounts.delete(normalized(email));
  }

  private forgetStale(now: number): void {
    if (now - this.lastSweepAt < 60_000) return;
    this.lastSweepAt = now;
    for (const records of [this.addresses, this.accounts]) {
      for (const [key, record] of records) if (now - record.lastFailureAt > FORGET_AFTER_MS) records.delete(key);
    }
  }
}

function normalized(email: string): string {
  return email.trim().toLowerCase();
}
