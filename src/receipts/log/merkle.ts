import { createHash } from "node:crypto";

/**
 * RFC 6962 / RFC 9162 Merkle tree hashing, proof construction and proof verification, with no
 * storage: proofs are built over any `NodeSource` (the database's tiles, or a list in memory), and
 * verified from hashes alone (the offline verifier in the binary uses this file). See docs/receipts.md.
 */
export type Hash = Uint8Array;

// One scratch buffer and Bun's one-shot SHA-256: a third of the cost of a node:crypto Hash object
// per node, which is most of what verifying a whole log does.
const scratch = new Uint8Array(65);

/** SHA-256(0x00 || entry). */
export function leafHash(entry: Uint8Array): Hash {
  if (entry.length !== 32)
    return createHash("sha256")
      .update(new Uint8Array([0x00]))
      .update(entry)
      .digest();
  scratch[0] = 0x00;
  scratch.set(entry, 1);
  return Bun.SHA256.hash(scratch.subarray(0, 33)) as Uint8Array;
}

/** SHA-256(0x01 || left || right). */
export function nodeHash(left: Hash, right: Hash): Hash {
  scratch[0] = 0x01;
  scratch.set(left, 1);
  scratch.set(right, 33);
  return Bun.SHA256.hash(scratch) as Uint8Array;
}

/** MTH of the empty tree: SHA-256 of nothing. */
export const EMPTY_ROOT: Hash = createHash("sha256").digest();

/**
 * The hash of the perfect subtree of 2^level leaves that starts at leaf `index * 2^level`.
 * Only ever asked for subtrees that lie entirely inside the tree the proof is about.
 */
export interface NodeSource {
  node(level: number, index: number): Hash;
}

const isPowerOfTwo = (n: number) => n > 0 && (n & (n - 1)) === 0;
const log2 = (n: number) => Math.log2(n);

/** The largest power of two smaller than n (n > 1). */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** MTH(D[start:end]) in RFC 6962 terms; `start` is always aligned the way the RFC's recursion aligns it. */
export function rangeHash(source: NodeSource, start: number, end: number): Hash {
  const size = end - start;
  if (size === 0) return EMPTY_ROOT;
  if (isPowerOfTwo(size)) return source.node(log2(size), start / size);
  const k = splitPoint(size);
  return nodeHash(rangeHash(source, start, start + k), rangeHash(source, start + k, end));
}

export function rootHash(source: NodeSource, size: number): Hash {
  return rangeHash(source, 0, size);
}

/** PATH(m, D[0:n]) of RFC 6962 §2.1.1, leaf-side first. */
export function inclusionProof(source: NodeSource, index: number, size: number): Hash[] {
  if (!(index >= 0 && index < size)) throw new RangeError(`index ${index} is not inside a tree of size ${size}`);
  const path = (m: number, start: number, end: number): Hash[] => {
    const n = end - start;
    if (n === 1) return [];
    const k = splitPoint(n);
    return m < k
      ? [...path(m, start, start + k), rangeHash(source, start + k, end)]
      : [...path(m - k, start + k, end), rangeHash(source, start, start + k)];
  };
  return path(index, 0, size);
}

/** PROOF(m, D[0:n]) of RFC 6962 §2.1.2. Empty when m = n or m = 0. */
export function consistencyProof(source: NodeSource, oldSize: number, newSize: number): Hash[] {
  if (!(oldSize >= 0 && oldSize <= newSize)) throw new RangeError(`cannot prove ${oldSize} consistent with ${newSize}`);
  if (oldSize === 0 || oldSize === newSize) return [];
  const subproof = (m: number, start: number, end: number, complete: boolean): Hash[] => {
    const n = end - start;
    if (m === n) return complete ? [] : [rangeHash(source, start, end)];
    const k = splitPoint(n);
    return m <= k
      ? [...subproof(m, start, start + k, complete), rangeHash(source, start + k, end)]
      : [...subproof(m - k, start + k, end, false), rangeHash(source, start, start + k)];
  };
  return subproof(oldSize, 0, newSize, true);
}

export const hashesEqual = (a: Hash, b: Hash) =>
  a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

/**
 * The walk both RFC 9162 proof checks share (§2.1.3.2 and §2.1.4.2): from node `fn` on the path to
 * the last node `sn`, each proof hash is either a left sibling (`left`) or a right one (`right`).
 * False when the proof is longer or shorter than the path.
 */
function walkPath(
  fn: number,
  sn: number,
  proof: readonly Hash[],
  left: (p: Hash) => void,
  right: (p: Hash) => void,
): boolean {
  for (const p of proof) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      left(p);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      right(p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0;
}

/** The root an inclusion proof leads to (RFC 9162 §2.1.3.2), or null when the proof has the wrong length. */
export function rootFromInclusionProof(index: number, size: number, leaf: Hash, proof: readonly Hash[]): Hash | null {
  if (!(index >= 0 && index < size)) return null;
  let r = leaf;
  const complete = walkPath(
    index,
    size - 1,
    proof,
    (p) => (r = nodeHash(p, r)),
    (p) => (r = nodeHash(r, p)),
  );
  return complete ? r : null;
}

export function verifyInclusion(index: number, size: number, leaf: Hash, proof: readonly Hash[], root: Hash): boolean {
  const computed = rootFromInclusionProof(index, size, leaf, proof);
  return computed !== null && hashesEqual(computed, root);
}

/** RFC 9162 §2.1.4.2: does `proof` show the tree of oldSize with oldRoot is a prefix of the one with newRoot? */
export function verifyConsistency(
  oldSize: number,
  newSize: number,
  proof: readonly Hash[],
  oldRoot: Hash,
  newRoot: Hash,
): boolean {
  if (oldSize > newSize || oldSize < 0) return false;
  if (oldSize === newSize) return proof.length === 0 && hashesEqual(oldRoot, newRoot);
  if (oldSize === 0) return proof.length === 0;
  const [first, ...rest] = isPowerOfTwo(oldSize) ? [oldRoot, ...proof] : proof;
  if (first === undefined) return false;
  let fn = oldSize - 1;
  let sn = newSize - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = first;
  let sr = first;
  const complete = walkPath(
    fn,
    sn,
    rest,
    (c) => {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
    },
    (c) => (sr = nodeHash(sr, c)),
  );
  return complete && hashesEqual(fr, oldRoot) && hashesEqual(sr, newRoot);
}

/**
 * The right edge of a growing tree (its perfect subtrees, largest first): appending is O(log n) and
 * the root is a fold from the right. The in-memory head of the log; also how `receipts verify`
 * recomputes every checkpoint's root from the leaves in one pass.
 */
export class CompactRange {
  private readonly nodes: { level: number; hash: Hash }[] = [];
  /** The perfect subtrees the last append completed, by level (the leaf itself at 0). */
  private justCompleted: Hash[] = [];
  size = 0;

  append(leaf: Hash): void {
    let level = 0;
    let hash = leaf;
    this.justCompleted = [leaf];
    for (let top = this.nodes.at(-1); top?.level === level; top = this.nodes.at(-1)) {
      this.nodes.pop();
      hash = nodeHash(top.hash, hash);
      level += 1;
      this.justCompleted.push(hash);
    }
    this.nodes.push({ level, hash });
    this.size += 1;
  }

  /** The hash of the perfect subtree of 2^level leaves that the last append completed, if it completed one. */
  completed(level: number): Hash | undefined {
    return this.justCompleted[level];
  }

  root(): Hash {
    const folded = this.nodes.reduceRight<Hash | undefined>(
      (right, node) => (right === undefined ? node.hash : nodeHash(node.hash, right)),
      undefined,
    );
    return folded ?? EMPTY_ROOT;
  }

  clone(): CompactRange {
    const copy = new CompactRange();
    copy.nodes.push(...this.nodes);
    copy.size = this.size;
    return copy;
  }

  /** The range of a tree of `size` leaves, from a source of its perfect subtrees. */
  static of(source: NodeSource, size: number): CompactRange {
    const range = new CompactRange();
    let start = 0;
    for (let level = 52; level >= 0; level--) {
      const width = 2 ** level;
      if (size - start >= width) {
        range.nodes.push({ level, hash: source.node(level, start / width) });
        start += width;
      }
    }
    range.size = size;
    return range;
  }
}

/** A NodeSource over leaf hashes held in memory (tests, and the offline checks of small trees). */
export function memoryNodes(leaves: readonly Hash[]): NodeSource {
  const computed = new Map<string, Hash>();
  const node = (level: number, index: number): Hash => {
    if (level === 0) {
      const leaf = leaves[index];
      if (!leaf) throw new RangeError(`no leaf ${index} among ${leaves.length}`);
      return leaf;
    }
    const key = `${level}/${index}`;
    const known = computed.get(key);
    if (known) return known;
    const hash = nodeHash(node(level - 1, index * 2), node(level - 1, index * 2 + 1));
    computed.set(key, hash);
    return hash;
  };
  return { node };
}
