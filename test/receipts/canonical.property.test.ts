import { describe, expect, test } from "bun:test";
import canonicalize from "canonicalize";
import fc from "fast-check";
import { canonicalJson } from "../../src/receipts/canonical.ts";
import { defined } from "../support/defined.ts";

/** The reference implementation of RFC 8785 this project did not write. */
const reference = (value: unknown) => canonicalize(value);

describe("canonicalJson gives the RFC 8785 bytes of the canonicalize package", () => {
  test("on arbitrary JSON values (unicode keys and strings, doubles, deep nesting)", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        expect(canonicalJson(value)).toBe(defined(reference(value), "reference(value)"));
      }),
      { numRuns: 5000 },
    );
  });

  test("on objects with undefined members and arrays holding undefined", () => {
    const shape = fc.dictionary(
      fc.string(),
      fc.oneof(
        fc.constant(undefined),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.array(fc.oneof(fc.constant(undefined), fc.integer())),
      ),
    );
    fc.assert(
      fc.property(shape, (value) => {
        expect(canonicalJson(value)).toBe(defined(reference(value), "reference(value)"));
      }),
      { numRuns: 5000 },
    );
  });

  test("on answer-like records (numbers of every magnitude, nested factors)", () => {
    const answer = fc.record({
      rate_per_mile: fc.double({ noNaN: true, noDefaultInfinity: true }),
      miles: fc.integer(),
      confidence: fc.record({
        level: fc.constantFrom("HIGH", "LOW"),
        reasons: fc.array(fc.string({ unit: "grapheme" })),
      }),
      factors: fc.array(
        fc.record({
          series_id: fc.string(),
          value: fc.double({ noNaN: true, noDefaultInfinity: true }),
          é: fc.boolean(),
        }),
      ),
    });
    fc.assert(
      fc.property(answer, (value) => {
        expect(canonicalJson(value)).toBe(defined(reference(value), "reference(value)"));
      }),
      { numRuns: 2000 },
    );
  });

  test("keys an object copy cannot hold in order: array-index-like and __proto__", () => {
    for (const value of [
      { "10": 1, "9": 2, a: 3 },
      { b: { "0": true, "": null } },
      JSON.parse('{"__proto__":0,"a":1}'),
      [{ "4294967295": 1, "4294967294": 2 }],
    ]) {
      expect(canonicalJson(value)).toBe(defined(reference(value), "reference(value)"));
    }
  });

  test("refuses what JSON cannot carry, like the reference", () => {
    expect(() => canonicalJson({ x: Number.NaN })).toThrow();
    expect(() => canonicalJson("\ud800")).toThrow();
    expect(() => canonicalJson(undefined)).toThrow();
  });
});
