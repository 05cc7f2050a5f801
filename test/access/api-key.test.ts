import { describe, expect, test } from "bun:test";
import { digestApiKey, displayIdOf, generateApiKey, isWellFormedApiKey } from "../../src/access/api-key.ts";

describe("API keys", () => {
  test("are wbk_ followed by 64 lowercase hex and never repeat", () => {
    const keys = new Set(Array.from({ length: 2000 }, generateApiKey));
    expect(keys.size).toBe(2000);
    for (const key of keys) expect(key).toMatch(/^wbk_[0-9a-f]{64}$/);
  });

  test("carry a checksum that catches a single mistyped character", () => {
    const key = generateApiKey();
    expect(isWellFormedApiKey(key)).toBe(true);
    for (const position of [4, 20, 59, 67]) {
      const wrong = key.slice(0, position) + (key[position] === "a" ? "b" : "a") + key.slice(position + 1);
      expect(isWellFormedApiKey(wrong)).toBe(false);
    }
    expect(isWellFormedApiKey(key.toUpperCase())).toBe(false);
    expect(isWellFormedApiKey(key.slice(0, -1))).toBe(false);
  });

  test("are stored as a SHA-256 digest and shown as a short display id", () => {
    const key = generateApiKey();
    expect(digestApiKey(key)).toBe(new Bun.CryptoHasher("sha256").update(key).digest("hex"));
    expect(digestApiKey(key)).not.toContain(key.slice(4, 20));
    expect(displayIdOf(key)).toBe(`${key.slice(0, 12)}…`);
  });
});
