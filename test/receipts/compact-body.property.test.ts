import { describe, expect, test } from "bun:test";
import canonicalize from "canonicalize";
import fc from "fast-check";
import { compactOf, composeBody, decomposeBody } from "../../src/receipts/compact-body.ts";
import { canonicalJson, sha256Hex } from "../../src/receipts/canonical.ts";
import { RECEIPT_FORMAT, type ReceiptBody } from "../../src/receipts/format.ts";
import { defined } from "../support/defined.ts";

const hex64 = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes).toString("hex"));
// Times of every year a Date can write, and runs of times within the same second.
const time = fc.oneof(
  fc.integer({ min: Date.parse("-010000-01-01T00:00:00.000Z"), max: Date.parse("+020000-12-31T23:59:59.999Z") }),
  fc.integer({ min: Date.parse("2026-01-01T00:00:00.000Z"), max: Date.parse("2026-01-01T00:00:10.000Z") }), // many in one second
);
const factor = fc.record({
  series_id: fc.string(),
  value: fc.double({ noNaN: true, noDefaultInfinity: true }),
  observation_date: fc.string(),
  import_id: fc.string(),
});

/** Receipt bodies of every shape the format allows: any strings, any JSON request, any scopes. */
const receiptBody = fc
  .record({
    id: fc.string(),
    log_index: fc.nat(),
    issued_at: time,
    known_at: time,
    skill: fc.string(),
    account_id: fc.string(),
    key_id: fc.string(),
    auth_obj_id: fc.string(),
    tier: fc.constantFrom("explorer", "starter", "professional", "enterprise"),
    scopes: fc.option(fc.array(fc.string()), { nil: null }),
    request: fc.jsonValue({ maxDepth: 4 }),
    response_sha256: hex64,
    factor_versions: fc.array(factor, { maxLength: 6 }),
    model_version: fc.string(),
    as_of: fc.string(),
  })
  .map(
    (fields): ReceiptBody => ({
      ...fields,
      v: RECEIPT_FORMAT,
      issued_at: new Date(fields.issued_at).toISOString(),
      known_at: new Date(fields.known_at).toISOString(),
      request_sha256: sha256Hex(canonicalJson(fields.request)),
    }),
  );

describe("a compact receipt rebuilds the RFC 8785 bytes of its body", () => {
  test("composeBody equals the canonicalize package's text of the same body, on every shape", {
    timeout: 60_000,
  }, () => {
    fc.assert(
      fc.property(receiptBody, (body) => {
        expect(composeBody(compactOf(body))).toBe(defined(canonicalize(body), "canonicalize(body)"));
      }),
      { numRuns: 2000 },
    );
  });

  test("decomposing a canonical body and composing it again gives the same bytes", { timeout: 60_000 }, () => {
    fc.assert(
      fc.property(receiptBody, (body) => {
        const text = canonicalJson(body);
        const compact = decomposeBody(text);
        expect(compact).not.toBeNull();
        expect(composeBody(defined(compact, "compact"))).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });

  test("a body the parts cannot rebuild is refused, so it is kept whole", () => {
    const body = defined(fc.sample(receiptBody, 1)[0], "fc.sample(receiptBody, 1)[0]");
    const text = canonicalJson(body);
    expect(decomposeBody(text.replace('"as_of"', '"_more":1,"as_of"'))).toBeNull(); // an unknown member
    expect(decomposeBody(text.replace(`"${body.request_sha256}"`, `"${"0".repeat(64)}"`))).toBeNull(); // a request digest of another request
    expect(decomposeBody(JSON.stringify(body, null, 1))).toBeNull(); // not canonical
    expect(decomposeBody(canonicalJson({ ...body, v: "waybill.receipt/2" }))).toBeNull();
    expect(decomposeBody("not json")).toBeNull();
  });
});
