import { incrementBase32, ulid } from "ulid";

/**
 * Monotonic ULIDs, as the package's monotonicFactory makes them (a new random part each millisecond,
 * the previous one plus one within a millisecond or when the clock steps back), but encoding the
 * time once per millisecond instead of once per id: ids are made on every request.
 */
export function monotonicUlids(): (now: number) => string {
  let last = { time: -1, timePart: "", randomPart: "" };
  return (now) => {
    if (now > last.time) {
      const fresh = ulid(now);
      last = { time: now, timePart: fresh.slice(0, 10), randomPart: fresh.slice(10) };
    } else last.randomPart = incrementBase32(last.randomPart);
    return last.timePart + last.randomPart;
  };
}

const nextUlid = monotonicUlids();

/** Time-ordered, prefixed identifiers: acct_, key_, auth_obj_, rcpt_, req_, imp_. */
export function newId(prefix: string, now: number = Date.now()): string {
  return `${prefix}_${nextUlid(now)}`;
}
