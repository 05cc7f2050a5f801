
/**
 * RFC 8785 (JCS) text of a JSON value: keys sorted by UTF-16 code unit, no whitespace, numbers and
 * strings in their ECMAScript JSON.stringify form. Two parties holding the same JSON value always
 * derive the same bytes, which is what lets a third party recompute a receipt's hash from its body.
 *
 * Written out here rather than taken from the `canonicalize` package because it runs on every answer
 * and the package's general walk (toJSON, boxed primitives, cycle tracking) cost ~40 µs per call on
 * the answered path; a property test proves the bytes equal the package's on many shapes.
 */
export function canonicalJson(value: unknown): string {
  const text = serialize(value);
  if (text === undefined) throw new TypeError("A receipt field has no JSON representation.");
  return text;
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
      if (typeof (value as { toJSON?: unknown }).toJSON === "function") return serialize((value as { toJSON(): unknown }).toJSON());
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
