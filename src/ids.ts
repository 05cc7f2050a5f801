import { encodeTime } from "ulid";

/** Crockford's base32, the ULID alphabet. */
const BASE32 = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** The 80-bit random part is kept as two 40-bit halves (each exact in a double), 8 characters each. */
const HALF = 2 ** 40;
const RANDOM_POOL_BYTES = 4096;

/** Every 10-bit value as its two characters. */
const PAIRS = Array.from({ length: 1024 }, (_, bits) => BASE32[bits >>> 5]! + BASE32[bits & 31]!);
const base32Of20Bits = (bits: number) => PAIRS[bits >>> 10]! + PAIRS[bits & 1023]!;

function base32Of40Bits(value: number): string {
  const high = Math.floor(value / 2 ** 20);
  return base32Of20Bits(high) + base32Of20Bits(value - high * 2 ** 20);
}

/**
 * 40 random bits from a pool the CSPRNG fills a block at a time: one `getRandomValues` per ~400
 * milliseconds of ids instead of one per character (the package draws 16 single bytes per ULID).
 */
function randomSource(): () => number {
  const pool = new Uint8Array(RANDOM_POOL_BYTES);
  let offset = RANDOM_POOL_BYTES;
  return () => {
    if (offset + 5 > RANDOM_POOL_BYTES) {
      crypto.getRandomValues(pool);
      offset = 0;
    }
    const value =
      pool[offset]! * 2 ** 32 +
      (((pool[offset + 1]! << 24) | (pool[offset + 2]! << 16) | (pool[offset + 3]! << 8) | pool[offset + 4]!) >>> 0);
    offset += 5;
    return value;
  };
}

/**
 * Monotonic ULIDs, as the package's monotonicFactory makes them (a new random part each millisecond,
 * the previous one plus one within a millisecond or when the clock steps back), made for one on every
 * request: the time part and the high half of the random part are encoded once per millisecond, and
 * an id within it only encodes the low half after adding one.
 */
export function monotonicUlids(random: () => number = randomSource()): (now: number) => string {
  let lastTime = -1;
  let prefix = ""; // time part + high half, as text
  let high = 0;
  let low = 0;
  return (now) => {
    if (now > lastTime) {
      lastTime = now;
      high = random();
      low = random();
      prefix = encodeTime(now) + base32Of40Bits(high);
    } else if (++low === HALF) {
      low = 0;
      if (++high === HALF) throw new Error("ULID random part overflow within one millisecond");
      prefix = encodeTime(lastTime) + base32Of40Bits(high);
    }
    return prefix + base32Of40Bits(low);
  };
}

const nextUlid = monotonicUlids();

/** Time-ordered, prefixed identifiers: acct_, key_, auth_obj_, rcpt_, req_, imp_. */
export function newId(prefix: string, now: number = Date.now()): string {
  return `${prefix}_${nextUlid(now)}`;
}
