import canonicalize from "canonicalize";
import { createHash } from "node:crypto";

/**
 * RFC 8785 (JCS) text of a JSON value: keys sorted by UTF-16 code unit, no whitespace, numbers in
 * ECMAScript shortest form. Two parties holding the same JSON value always derive the same bytes,
 * which is what lets a third party recompute a receipt's hash from its parsed body.
 */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError("A receipt field has no JSON representation.");
  return text;
}

/** Lowercase hex SHA-256 of UTF-8 text. */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
