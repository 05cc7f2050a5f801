/**
 * RFC 8785 (JCS) text of a JSON value: keys sorted by UTF-16 code unit, no whitespace, numbers and
 * strings in their ECMAScript JSON.stringify form. Two parties holding the same JSON value always
 * derive the same bytes, which is what lets a third party recompute a receipt's hash from its body.
 *
 * Written out here rather than taken from the `canonicalize` package because it runs on every answer:
 * a sorted copy written by the engine's JSON.stringify costs well under half of the package's walk
 * (test/bench/stages.ts shows both); a property test proves the bytes equal the package's.
 */
export function canonicalJson(value: unknown): string {
  // Fast path: copy with sorted keys, let the engine's JSON.stringify write it. A copy cannot keep
  // array-index-like keys in order ("10" before "9": objects enumerate those first) nor hold a
  // "__proto__" key, so a value with either is written by hand instead.
  const sorted = sortedCopy(value);
  const text = sorted === HAND_WRITTEN ? serialize(value) : JSON.stringify(sorted);
  if (text === undefined) throw new TypeError("A receipt field has no JSON representation.");
  return text;
}

const HAND_WRITTEN = Symbol("write this value by hand");
const ARRAY_INDEX = /^(?:0|[1-9][0-9]{0,9})$/;

/** The value with every object's keys in UTF-16 order, checked the way RFC 8785 requires; or HAND_WRITTEN. */
function sortedCopy(value: unknown): unknown {
  switch (typeof value) {
    case "string":
      if (!value.isWellFormed()) throw new TypeError("Lone surrogate is not allowed");
      return value;
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`${value} is not allowed in JSON`);
      return value;
    case "object": {
      if (value === null) return null;
      if (typeof (value as { toJSON?: unknown }).toJSON === "function")
        return sortedCopy((value as { toJSON(): unknown }).toJSON());
      if (Array.isArray(value)) {
        const copy = new Array(value.length);
        for (let i = 0; i < value.length; i++) {
          const item = sortedCopy(value[i]);
          if (item === HAND_WRITTEN) return HAND_WRITTEN;
          copy[i] = item;
        }
        return copy;
      }
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record).sort();
      const copy: Record<string, unknown> = {};
      for (const key of keys) {
        if (key === "__proto__" || (ARRAY_INDEX.test(key) && Number(key) < 4294967295)) return HAND_WRITTEN;
        if (!key.isWellFormed()) throw new TypeError("Lone surrogate is not allowed");
        const member = sortedCopy(record[key]);
        if (member === HAND_WRITTEN) return HAND_WRITTEN;
        copy[key] = member;
      }
      return copy;
    }
    default:
      return value;
  }
}

function serialize(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
      if (!value.isWellFormed()) throw new TypeError("Lone surrogate is not allowed");
      return JSON.stringify(value);
    case "number":
      if (!Number.isFinite(value)) throw new TypeError(`${value} is not allowed in JSON`);
      return JSON.stringify(value);
    case "boolean":
      return value ? "true" : "false";
    case "object": {
      if (value === null) return "null";
      if (typeof (value as { toJSON?: unknown }).toJSON === "function")
        return serialize((value as { toJSON(): unknown }).toJSON());
      if (Array.isArray(value)) {
        let out = "[";
        for (let i = 0; i < value.length; i++) out += (i === 0 ? "" : ",") + (serialize(value[i]) ?? "null");
        return `${out}]`;
      }
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record).sort();
      let out = "{";
      let first = true;
      for (const key of keys) {
        const member = serialize(record[key]);
        if (member === undefined) continue;
        out += `${first ? "" : ","}${JSON.stringify(key)}:${member}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      return undefined; // undefined, functions, symbols: dropped from objects, null in arrays
  }
}

/** Lowercase hex SHA-256 of UTF-8 text (Bun's one-shot hash: no Hash object per call). */
export function sha256Hex(text: string): string {
  return Bun.SHA256.hash(text, "hex") as string;
}
