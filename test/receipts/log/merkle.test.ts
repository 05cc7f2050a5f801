import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
// The RFC 6962 inclusion verifier of the sigstore project: an implementation this project did not write.
import { verifyMerkleInclusion } from "@sigstore/verify/dist/tlog/merkle";
import {
  CompactRange,
  consistencyProof,
  inclusionProof,
  leafHash,
  memoryNodes,
  rootHash,
  verifyConsistency,
  verifyInclusion,
  type Hash,
} from "../../../src/receipts/log/merkle.ts";
import { defined } from "../../support/defined.ts";

const entryOf = (i: number) => createHash("sha256").update(`entry ${i}`).digest();

/** MTH straight from RFC 6962 §2.1, as a yardstick. */
function mth(entries: Buffer[]): Buffer {
  if (entries.length === 0) return createHash("sha256").digest();
  if (entries.length === 1)
    return createHash("sha256")
      .update(Buffer.from([0]))
      .update(defined(entries[0], "entries[0]"))
      .digest();
  let k = 1;
  while (k * 2 < entries.length) k *= 2;
  return createHash("sha256")
    .update(Buffer.from([1]))
    .update(mth(entries.slice(0, k)))
    .update(mth(entries.slice(k)))
    .digest();
}

const flip = (hash: Hash) => {
  const copy = Buffer.from(hash);
  copy[0] = defined(copy[0], "copy[0]") ^ 1;
  return copy;
};

describe("RFC 6962 tree", () => {
  const entries = Array.from({ length: 70 }, (_, i) => entryOf(i));
  const leaves = entries.map(leafHash);
  const nodes = memoryNodes(leaves);

  test("root hashes equal the RFC's recursive definition, and the compact range agrees at every size", () => {
    const range = new CompactRange();
    for (let size = 0; size <= entries.length; size++) {
      const expected = mth(entries.slice(0, size));
      expect(Buffer.from(rootHash(nodes, size)).equals(expected)).toBe(true);
      expect(Buffer.from(range.root()).equals(expected)).toBe(true);
      expect(Buffer.from(CompactRange.of(nodes, size).root()).equals(expected)).toBe(true);
      if (size < entries.length) range.append(defined(leaves[size], "leaves[size]"));
    }
  });

  test("every inclusion proof verifies with sigstore's verifier and ours; a wrong leaf or hash does not", () => {
    for (const size of [1, 2, 3, 7, 8, 9, 31, 64, 70]) {
      const root = rootHash(nodes, size);
      for (let index = 0; index < size; index++) {
        const proof = inclusionProof(nodes, index, size);
        expect(verifyInclusion(index, size, defined(leaves[index], "leaves[index]"), proof, root)).toBe(true);
        const entry = {
          canonicalizedBody: defined(entries[index], "entries[index]"),
          inclusionProof: { logIndex: String(index), hashes: proof.map((h) => Buffer.from(h)) },
        };
        expect(() =>
          verifyMerkleInclusion(entry as never, { logSize: BigInt(size), logHash: Buffer.from(root) } as never),
        ).not.toThrow();
        if (proof.length > 0) {
          const tampered = [...proof.slice(0, -1), flip(defined(proof[proof.length - 1], "proof[proof.length - 1]"))];
          expect(verifyInclusion(index, size, defined(leaves[index], "leaves[index]"), tampered, root)).toBe(false);
          const bad = {
            ...entry,
            inclusionProof: { ...entry.inclusionProof, hashes: tampered.map((h) => Buffer.from(h)) },
          };
          expect(() =>
            verifyMerkleInclusion(bad as never, { logSize: BigInt(size), logHash: Buffer.from(root) } as never),
          ).toThrow();
        }
        expect(
          verifyInclusion(index, size, defined(leaves[(index + 1) % 70], "leaves[(index + 1) % 70]"), proof, root),
        ).toBe(false);
      }
    }
  });

  test("every consistency proof between two sizes verifies; a wrong old root or tampered hash does not", () => {
    for (let newSize = 1; newSize <= 40; newSize++) {
      const newRoot = rootHash(nodes, newSize);
      for (let oldSize = 1; oldSize <= newSize; oldSize++) {
        const oldRoot = rootHash(nodes, oldSize);
        const proof = consistencyProof(nodes, oldSize, newSize);
        expect(verifyConsistency(oldSize, newSize, proof, oldRoot, newRoot)).toBe(true);
        if (oldSize < newSize) {
          expect(verifyConsistency(oldSize, newSize, proof, flip(oldRoot), newRoot)).toBe(false);
          expect(verifyConsistency(oldSize, newSize, proof.map(flip), oldRoot, newRoot)).toBe(false);
        }
      }
    }
  });

  test("a log that dropped its newest leaves and grew again is not consistent with the old checkpoint", () => {
    const forked = [...leaves.slice(0, 20), ...Array.from({ length: 20 }, (_, i) => leafHash(entryOf(1000 + i)))];
    const forkedNodes = memoryNodes(forked);
    const proof = consistencyProof(forkedNodes, 30, 40);
    expect(verifyConsistency(30, 40, proof, rootHash(nodes, 30), rootHash(forkedNodes, 40))).toBe(false);
  });
});
