import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { verifyMerkleInclusion } from "@sigstore/verify/dist/tlog/merkle";
import { DEFAULT_LIMITS } from "../../src/metering/limits.ts";
import { leafHash, verifyConsistency } from "../../src/receipts/log/merkle.ts";
import { parseCheckpointText, parseNote, parseVerifierKey, verifyNote } from "../../src/receipts/log/note.ts";
import { CHICAGO_TO_DALLAS, testInstance, type TestInstance } from "../support/instance.ts";
import { defined } from "../support/defined.ts";

let server: TestInstance;
let key: string;
const answers: { receipt_id: string; log_index: number }[] = [];

beforeAll(async () => {
  server = await testInstance({ limits: { ...DEFAULT_LIMITS, enterprise: { perMinute: 10_000, perMonth: 100_000 } } });
  key = (await server.accountWithKey("enterprise")).key;
  // Concurrent calls share group-commit batches, so several checkpoints cover several receipts each.
  for (let round = 0; round < 13; round++) {
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        server.call("/v1/rates/lookup", { key, method: "POST", json: CHICAGO_TO_DALLAS }),
      ),
    );
    for (const response of responses)
      answers.push((await response.json()) as { receipt_id: string; log_index: number });
  }
}, 60_000);
afterAll(() => server.stop());

const text = async (path: string) => {
  const response = await server.call(path);
  return { response, body: await response.text() };
};
const bytes = async (path: string) => {
  const response = await server.call(path);
  return { response, body: Buffer.from(await response.arrayBuffer()) };
};

describe("the receipt log over HTTP, with no key", () => {
  test("every answer names its log index, and the indexes are 0..n-1", async () => {
    expect(answers.map((a) => a.log_index).sort((a, b) => a - b)).toEqual(Array.from({ length: 260 }, (_, i) => i));
  });

  test("/log/checkpoint is the latest signed checkpoint, verifiable with the published note key", async () => {
    const { response, body } = await text("/log/checkpoint");
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const published = (await (await server.call("/v1/receipts/public-key")).json()) as {
      note_verifier_key: string;
      keys: { note_verifier_key: string }[];
      log: { origin: string };
    };
    const note = parseNote(body);
    const checkpoint = parseCheckpointText(note.text);
    expect(checkpoint.size).toBe(260);
    expect(checkpoint.origin).toBe(published.log.origin);
    expect(verifyNote(note, [parseVerifierKey(published.note_verifier_key)])).toHaveLength(1);
  });

  test("tiles and entry bundles follow C2SP tlog-tiles; full ones are immutable, missing ones are 404", async () => {
    const full = await bytes("/log/tile/0/000");
    expect(full.response.status).toBe(200);
    expect(full.response.headers.get("cache-control")).toContain("immutable");
    expect(full.body.length).toBe(256 * 32);
    const partial = await bytes("/log/tile/0/001.p/4");
    expect(partial.body.length).toBe(4 * 32);
    expect((await server.call("/log/tile/0/001.p/5")).status).toBe(404);
    expect((await server.call("/log/tile/0/001")).status).toBe(404);
    expect((await server.call("/log/tile/0/x001")).status).toBe(404);
    const level1 = await bytes("/log/tile/1/000.p/1");
    expect(level1.body.length).toBe(32);

    const bundle = await bytes("/log/tile/entries/000");
    expect(bundle.response.headers.get("cache-control")).toContain("immutable");
    // 256 entries, each a big-endian uint16 length (32) and the 32-byte entry, hashing to the level-0 tile.
    expect(bundle.body.length).toBe(256 * 34);
    for (let i = 0; i < 256; i++) {
      expect(bundle.body.readUInt16BE(i * 34)).toBe(32);
      const entry = bundle.body.subarray(i * 34 + 2, i * 34 + 34);
      expect(Buffer.from(leafHash(entry)).equals(full.body.subarray(i * 32, i * 32 + 32))).toBe(true);
    }
    expect((await bytes("/log/tile/entries/001.p/4")).body.length).toBe(4 * 34);
  });

  test("the inclusion proof of any answer verifies with sigstore's RFC 6962 verifier against the checkpoint", async () => {
    const { body: note } = await text("/log/checkpoint");
    const { size, root } = parseCheckpointText(parseNote(note).text);
    const entries = Buffer.concat([
      (await bytes("/log/tile/entries/000")).body,
      (await bytes("/log/tile/entries/001.p/4")).body,
    ]);
    for (const index of [0, 1, 100, 255, 256, 259]) {
      const proof = (await (await server.call(`/v1/log/inclusion?index=${index}&tree_size=${size}`)).json()) as {
        hashes: string[];
      };
      const entry = {
        canonicalizedBody: entries.subarray(index * 34 + 2, index * 34 + 34),
        inclusionProof: { logIndex: String(index), hashes: proof.hashes.map((h) => Buffer.from(h, "base64")) },
      };
      expect(() =>
        verifyMerkleInclusion(entry as never, { logSize: BigInt(size), logHash: root } as never),
      ).not.toThrow();
    }
  });

  test("consistency proofs between stored checkpoints verify; bad parameters are 400 with the contract's code", async () => {
    const sizes = server.db.$client
      .query<{ tree_size: number; root_hash: string }, []>(
        "SELECT tree_size, root_hash FROM log_checkpoints ORDER BY tree_size",
      )
      .all();
    expect(sizes.length).toBeGreaterThan(1);
    for (let i = 1; i < sizes.length; i++) {
      const [older, newer] = [defined(sizes[i - 1], "sizes[i - 1]"), defined(sizes[i], "sizes[i]")];
      const proof = (await (
        await server.call(`/v1/log/consistency?from=${older.tree_size}&to=${newer.tree_size}`)
      ).json()) as { hashes: string[] };
      const hashes = proof.hashes.map((h) => Buffer.from(h, "base64"));
      expect(
        verifyConsistency(
          older.tree_size,
          newer.tree_size,
          hashes,
          Buffer.from(older.root_hash, "hex"),
          Buffer.from(newer.root_hash, "hex"),
        ),
      ).toBe(true);
    }
    for (const path of [
      "/v1/log/consistency?from=5&to=4",
      "/v1/log/consistency?from=1&to=9999",
      "/v1/log/inclusion?index=260",
      "/v1/log/inclusion?index=-1",
      "/v1/log/inclusion",
    ]) {
      const response = await server.call(path);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toBe("INVALID_REQUEST");
    }
  });
});

// Last: it adds a receipt to the log the tests above count.
test("an answer is sent as the bytes its receipt hashed, with the envelope appended", async () => {
  const response = await server.call("/v1/rates/lookup", { key, method: "POST", json: CHICAGO_TO_DALLAS });
  const text = await response.text();
  const { receipt_id } = JSON.parse(text) as { receipt_id: string };
  const envelope = text.lastIndexOf(',"receipt_id":');
  const hashedBytes = `${text.slice(0, envelope)}}`;
  const { responseSha256 } = defined(
    server.db.$client
      .query<{ responseSha256: string }, [string]>(
        "SELECT lower(hex(response_sha256)) AS responseSha256 FROM receipts WHERE id = ?",
      )
      .get(receipt_id),
    "the row of SELECT lower(hex(response_sha256)) AS responseSha256 FROM receipts WHERE id = ?",
  );
  expect(createHash("sha256").update(hashedBytes).digest("hex")).toBe(responseSha256);
  expect(response.headers.get("content-type")).toContain("application/json");
});
