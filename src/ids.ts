import { monotonicFactory } from "ulid";

const nextUlid = monotonicFactory();

/** Time-ordered, prefixed identifiers: acct_, key_, auth_obj_, rcpt_, req_, imp_. */
export function newId(prefix: string, now: number = Date.now()): string {
  return `${prefix}_${nextUlid(now)}`;
}
