import { monotonicFactory } from "ulid";

/**
 * Monotonic ULIDs (the `ulid` package): time-ordered, and strictly increasing within a millisecond
 * and when the clock steps back, so ids made in one process sort in the order they were made.
 */
const nextUlid = monotonicFactory();

/** Time-ordered, prefixed identifiers: acct_, key_, auth_obj_, rcpt_, req_, imp_. */
export function newId(prefix: string, now: number = Date.now()): string {
  return `${prefix}_${nextUlid(now)}`;
}
