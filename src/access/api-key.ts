/**
 * The key format: `wbk_` + 56 random hex + 8 hex CRC32 of those 56 (docs/api.md). The checksum lets
 * clients and secret scanners reject a mistyped key offline, and lets the server refuse it
 * without touching the key index. 224 random bits remain.
 */
export const KEY_PREFIX = "wbk_";
const KEY_SHAPE = /^wbk_[0-9a-f]{64}$/;
const RANDOM_HEX_LENGTH = 56;
const KEY_HEX_LENGTH = 64;

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

/**
 * Why a candidate is not a well-formed key, in words that say what to fix (the key itself is never
 * repeated). Undefined for a well-formed key. Only refusals pay for this; isWellFormedApiKey is the check.
 */
export function keyFormatProblem(candidate: string): string | undefined {
  if (isWellFormedApiKey(candidate)) return undefined;
  if (!candidate.startsWith(KEY_PREFIX))
    return candidate.toLowerCase().startsWith(KEY_PREFIX)
      ? `The API key must start with '${KEY_PREFIX}' in lower case.`
      : `The API key does not start with '${KEY_PREFIX}': send the key the dashboard showed, not another token.`;
  const body = candidate.slice(KEY_PREFIX.length);
  if (body.length !== KEY_HEX_LENGTH)
    return `The API key has ${body.length} characters after '${KEY_PREFIX}' where a key has ${KEY_HEX_LENGTH}: it was cut short or has extra characters; copy it again, whole.`;
  const stray = body.search(/[^0-9a-f]/);
  if (stray >= 0)
    return `The API key has a character that is not lowercase hex at position ${KEY_PREFIX.length + stray + 1}; keys use only 0-9 and a-f.`;
  return "The API key's checksum (its last 8 characters) does not match the rest: a character was mistyped or changed; copy the key again.";
}

/** What the database stores and looks keys up by. Keys carry 224 random bits, so a fast hash is enough. */
export function digestApiKey(key: string): string {
  return Bun.SHA256.hash(key, "hex"); // one call, no hasher object: it runs on every request
}

/** Safe to show and log: the prefix and the first 8 hex. */
export function displayIdOf(key: string): string {
  return `${key.slice(0, KEY_PREFIX.length + 8)}…`;
}
