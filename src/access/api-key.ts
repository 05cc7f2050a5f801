/**
 * The key format: `wbk_` + 56 random hex + 8 hex CRC32 of those 56 (docs/api.md). The checksum lets
 * clients and secret scanners reject a mistyped key offline, and lets the server refuse it
 * without touching the key index. 224 random bits remain.
 */
export const KEY_PREFIX = "wbk_";
const KEY_SHAPE = /^wbk_[0-9a-f]{64}$/;
const RANDOM_HEX_LENGTH = 56;

function checksum(randomHex: string): string {
  return Bun.hash.crc32(randomHex).toString(16).padStart(8, "0");
}

export function generateApiKey(): string {
  const randomHex = Buffer.from(crypto.getRandomValues(new Uint8Array(RANDOM_HEX_LENGTH / 2))).toString("hex");
  return KEY_PREFIX + randomHex + checksum(randomHex);
}

/** Well-formed: the right prefix, 64 lowercase hex, and a matching checksum. */
export function isWellFormedApiKey(candidate: string): boolean {
  if (!KEY_SHAPE.test(candidate)) return false;
  const body = candidate.slice(KEY_PREFIX.length);
  return checksum(body.slice(0, RANDOM_HEX_LENGTH)) === body.slice(RANDOM_HEX_LENGTH);
}

/** What the database stores and looks keys up by. Keys carry 224 random bits, so a fast hash is enough. */
export function digestApiKey(key: string): string {
  return Bun.SHA256.hash(key, "hex"); // one call, no hasher object: it runs on every request
}

/** Safe to show and log: the prefix and the first 8 hex. */
export function displayIdOf(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 8) + "…";
}
