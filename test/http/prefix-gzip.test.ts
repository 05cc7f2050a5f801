import { describe, expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { gzipWithSharedPrefix } from "../../src/http/prefix-gzip.ts";

const decoder = new TextDecoder();

/** Decoded by GNU gzip, a decoder this project did not write (it checks the CRC-32 and the length too). */
function gnuGunzip(bytes: Uint8Array): string {
  const run = Bun.spawnSync(["gzip", "-d", "-c"], { stdin: bytes });
  expect(run.exitCode).toBe(0);
  return decoder.decode(run.stdout);
}

async function streamGunzip(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
}

const envelope = (n: number) =>
  `"receipt_id":"rcpt_${n.toString(36).padStart(26, "0")}","log_index":${n},"auth_obj_id":"auth_x"}`;
const answerPrefix = `{"breakdown":{"fuel":0.8984,"labor":0.9606},"lane":{"origin":"Chicago, IL","destination":"Dallas, TX"},"notes":"${"cost basis ".repeat(200)}",`;

describe("gzip with a shared prefix", () => {
  const cases: [string, string, string][] = [
    ["an answer and its envelope", answerPrefix, envelope(7)],
    ["an empty answer", "{", envelope(0)],
    ["no prefix at all", "", envelope(1)],
    [
      "multi-byte characters on both sides",
      `{"city":"Coeur d’Alene, ID — 🚚","x":"${"é".repeat(3000)}",`,
      `"note":"naïve ✓"}`,
    ],
    [
      "a prefix past deflate's 32 KB window",
      `{"rows":[${Array.from({ length: 9000 }, (_, i) => i * 7).join(",")}],`,
      envelope(9),
    ],
    ["a tail too long for one stored block", answerPrefix, `"pad":"${"z".repeat(70_000)}"}`],
  ];
  for (const [name, prefix, tail] of cases) {
    test(`${name}: every decoder gets the exact text back`, async () => {
      const body = gzipWithSharedPrefix({}, prefix, tail, 1);
      expect(decoder.decode(gunzipSync(body))).toBe(prefix + tail);
      expect(decoder.decode(Bun.gunzipSync(body))).toBe(prefix + tail);
      expect(await streamGunzip(body)).toBe(prefix + tail);
      expect(gnuGunzip(body)).toBe(prefix + tail);
    });
  }

  test("bodies with the same prefix owner share its deflated bytes and differ only after them", () => {
    const owner = {};
    const first = gzipWithSharedPrefix(owner, answerPrefix, envelope(1), 1);
    const second = gzipWithSharedPrefix(owner, answerPrefix, envelope(2), 1);
    expect(decoder.decode(gunzipSync(first))).toBe(answerPrefix + envelope(1));
    expect(decoder.decode(gunzipSync(second))).toBe(answerPrefix + envelope(2));
    const tailBytes = new TextEncoder().encode(envelope(1)).byteLength;
    const shared = first.byteLength - tailBytes - 5 - 8;
    expect(first.byteLength).toBe(second.byteLength);
    expect(first.subarray(0, shared)).toEqual(second.subarray(0, shared));
    expect(first.subarray(shared)).not.toEqual(second.subarray(shared));
    // The prefix is deflated, not stored: the body is smaller than the text.
    expect(first.byteLength).toBeLessThan(answerPrefix.length / 2);
  });

  test("a corrupted tail is refused by the CRC-32, so the trailer covers the whole body", () => {
    const body = gzipWithSharedPrefix({}, answerPrefix, envelope(3), 1);
    const tailEnd = body.byteLength - 9; // the tail's last byte, before the 8-byte trailer
    body[tailEnd] = body[tailEnd]! ^ 1;
    expect(() => gunzipSync(body)).toThrow();
  });
});
