import type { Clock } from "../../clock.ts";
import type { Db } from "../../db/client.ts";
import type { BatchParticipant } from "../../db/group-commit.ts";
import type { SigningKey } from "../signer.ts";
import { CompactRange, consistencyProof, inclusionProof, leafHash, type Hash, type NodeSource } from "./merkle.ts";
import { checkpointText, signNote } from "./note.ts";
import { reduceHashes, TileStore, TILE_HEIGHT, TILE_WIDTH } from "./tiles.ts";

/** The committed tree in memory: its size, its right edge, and the partial tile of every level. */
interface Head {
  size: number;
  range: CompactRange;
  /** partial[t]: the hashes of the rightmost, not yet full tile at tile level t (0–255 of them). */
  partial: Hash[][];
}

export interface SignedCheckpoint {
  size: number;
  root: Hash;
  kid: string;
  note: string;
}

const tileSpan = (level: number) => TILE_WIDTH ** (level + 1);

/**
 * The receipt transparency log (docs/receipts.md). Receipts are appended inside a group-commit
 * batch; when the batch's writes are done and before its COMMIT, the new leaves go into the tree
 * (full tiles written in the same transaction) and one checkpoint is signed and stored, so every
 * response of the batch is covered by a durable, signed checkpoint before it is sent.
 */
export class ReceiptLog implements BatchParticipant {
  private head: Head;
  private staged: Hash[] = [];
  private stagedMark = 0;
  private beforeBatch: Head | null = null;
  private sealed: SignedCheckpoint | null = null;
  /** Checkpoints of committed batches, oldest first, published once their batch is on disk (null: a batch without receipts). */
  private awaitingDurable: (SignedCheckpoint | null)[] = [];
  private latestCheckpoint: SignedCheckpoint | null;
  private readonly insertCheckpoint;

  private constructor(
    private readonly db: Db,
    private readonly store: TileStore,
    private readonly origin: string,
    private readonly currentKey: () => SigningKey,
    private readonly clock: Clock,
  ) {
    this.insertCheckpoint = db.$client.prepare("INSERT INTO log_checkpoints (tree_size, root_hash, kid, note, signed_at) VALUES (?, ?, ?, ?, ?)");
    this.head = { size: 0, range: new CompactRange(), partial: [[]] };
    this.latestCheckpoint = null;
  }

  /**
   * Load the head from the stored tiles and receipts. Receipts not yet in the tiles (those written
   * before the log existed, format waybill.receipt/2) are added now, and a checkpoint covering them
   * is signed: the upgrade migration, in one transaction.
   */
  static open(db: Db, options: { origin: string; key: () => SigningKey; clock: Clock }): ReceiptLog {
    const log = new ReceiptLog(db, new TileStore(db), options.origin, options.key, options.clock);
    db.$client.transaction(() => log.catchUp()).immediate();
    return log;
  }

  get size(): number {
    return this.head.size;
  }

  get logOrigin(): string {
    return this.origin;
  }

  /** The newest signed checkpoint, or null while the log is empty. */
  latest(): SignedCheckpoint | null {
    return this.latestCheckpoint;
  }

  /** The log index the next staged leaf gets. */
  nextIndex(): number {
    return this.head.size + this.staged.length;
  }

  /** Add a leaf entry to the open batch (called inside the batch's write). */
  stage(entry: Uint8Array): void {
    this.staged.push(leafHash(entry));
  }

  writeStarted(): void {
    this.stagedMark = this.staged.length;
  }

  writeRolledBack(): void {
    this.staged.length = this.stagedMark;
  }

  beforeCommit(): void {
    if (this.staged.length === 0) return;
    this.beforeBatch = cloneHead(this.head);
    for (const leaf of this.staged) this.applyLeaf(leaf);
    this.sealed = this.signCheckpoint();
  }

  afterCommit(): void {
    this.awaitingDurable.push(this.sealed);
    this.reset();
  }

  /** A checkpoint is served (and so are the tiles it covers) only once its batch is durable. */
  afterDurable(): void {
    const checkpoint = this.awaitingDurable.shift();
    if (checkpoint) this.latestCheckpoint = checkpoint;
  }

  afterRollback(): void {
    if (this.beforeBatch) this.head = this.beforeBatch;
    this.reset();
  }

  /** The committed tree's perfect subtrees, from tiles in the database and the head in memory. */
  nodes(): NodeSource {
    const head = this.head;
    const store = this.store;
    return {
      node(level, index) {
        const tileLevel = Math.floor(level / TILE_HEIGHT);
        const width = 2 ** (level % TILE_HEIGHT);
        const first = index * width;
        const tileIndex = Math.floor(first / TILE_WIDTH);
        const offset = first % TILE_WIDTH;
        if (tileIndex < Math.floor(head.size / tileSpan(tileLevel))) {
          const hash = store.fullTileLevels(tileLevel, tileIndex)?.[level % TILE_HEIGHT]?.[offset / width];
          if (!hash) throw new Error(`log node ${level}/${index} is not stored`);
          return hash;
        }
        const slice = head.partial[tileLevel]?.slice(offset, offset + width);
        if (!slice || slice.length !== width) throw new Error(`log node ${level}/${index} is not stored`);
        return reduceHashes(slice);
      },
    };
  }

  inclusionProof(index: number, size: number): Hash[] {
    this.checkSize(size);
    return inclusionProof(this.nodes(), index, size);
  }

  consistencyProof(oldSize: number, newSize: number): Hash[] {
    this.checkSize(newSize);
    return consistencyProof(this.nodes(), oldSize, newSize);
  }

  /**
   * Hashes of tile (level, index) of the committed tree: the full tile, or its first `width` hashes
   * (a partial tile of some checkpoint's tree, served from the full tile once that exists); null when
   * no such tile exists yet.
   */
  tile(level: number, index: number, width: number | null): Hash[] | null {
    const count = width ?? TILE_WIDTH;
    // Only hashes of the tree the latest checkpoint signs: leaves committed since may not be on disk yet.
    if (!Number.isSafeInteger(index * TILE_WIDTH + count) || index * TILE_WIDTH + count > Math.floor(this.publishedSize() / TILE_WIDTH ** level)) return null;
    if (index < Math.floor(this.head.size / tileSpan(level))) return this.store.fullTile(level, index)?.slice(0, count) ?? null;
    const partial = this.head.partial[level] ?? [];
    return count <= partial.length ? partial.slice(0, count) : null;
  }

  /** Leaf entries of entry bundle `index`: the full bundle, or its first `width` entries. */
  entries(index: number, width: number | null): Buffer[] | null {
    const from = index * TILE_WIDTH;
    const to = from + (width ?? TILE_WIDTH);
    if (!Number.isSafeInteger(to) || to > this.publishedSize()) return null;
    return this.store.entries(from, to);
  }

  private publishedSize(): number {
    return this.latestCheckpoint?.size ?? 0;
  }

  private checkSize(size: number): void {
    if (!Number.isSafeInteger(size) || size < 0 || size > this.head.size) {
      throw new RangeError(`tree size ${size} is beyond the log (size ${this.head.size})`);
    }
  }

  private reset(): void {
    this.staged = [];
    this.stagedMark = 0;
    this.beforeBatch = null;
    this.sealed = null;
  }

  private applyLeaf(leaf: Hash): void {
    const head = this.head;
    head.range.append(leaf);
    head.size += 1;
    head.partial[0]!.push(leaf);
    for (let level = 0; head.partial[level]!.length === TILE_WIDTH; level++) {
      const tileIndex = Math.floor(head.size / tileSpan(level)) - 1;
      this.store.putTile(level, tileIndex, head.partial[level]!);
      const tileRoot = head.range.completed((level + 1) * TILE_HEIGHT);
      if (!tileRoot) throw new Error("the log's right edge lost a completed tile");
      head.partial[level] = [];
      if (!head.partial[level + 1]) head.partial[level + 1] = [];
      head.partial[level + 1]!.push(tileRoot);
    }
  }

  private signCheckpoint(): SignedCheckpoint {
    const key = this.currentKey();
    const root = this.head.range.root();
    const size = this.head.size;
    const note = signNote(checkpointText({ origin: this.origin, size, root: Buffer.from(root) }), this.origin, Buffer.from(key.publicKey, "base64url"), key.privateKey);
    this.insertCheckpoint.run(size, Buffer.from(root).toString("hex"), key.kid, note, this.clock.now());
    return { size, root, kid: key.kid, note };
  }

  private catchUp(): void {
    const sqlite = this.db.$client;
    const receiptCount = sqlite.query<{ n: number | null }, []>("SELECT max(seq) AS n FROM receipts").get()?.n ?? 0;
    const tiledSize = Math.min(this.store.tileCount(0) * TILE_WIDTH, receiptCount - (receiptCount % TILE_WIDTH));
    this.head = this.loadHead(tiledSize);
    for (let from = tiledSize; from < receiptCount; from += 10_000) {
      for (const entry of this.store.entries(from, Math.min(receiptCount, from + 10_000))) this.applyLeaf(leafHash(entry));
    }
    const stored = sqlite
      .query<{ treeSize: number; rootHash: string; kid: string; note: string }, []>(
        "SELECT tree_size AS treeSize, root_hash AS rootHash, kid, note FROM log_checkpoints ORDER BY tree_size DESC LIMIT 1",
      )
      .get();
    // Never sign a checkpoint inconsistent with one already signed (C2SP tlog-checkpoint): a log that
    // lost receipts, or whose receipts no longer hash to the signed root, is not served.
    if (stored && stored.treeSize > this.head.size) {
      throw new Error(
        `the receipt log holds ${this.head.size} receipts but a checkpoint of ${stored.treeSize} was signed: receipts were deleted (run 'waybill receipts verify')`,
      );
    }
    if (stored && stored.treeSize === this.head.size && Buffer.from(this.head.range.root()).toString("hex") !== stored.rootHash) {
      throw new Error(`the receipts no longer hash to the root of the latest checkpoint (tree size ${stored.treeSize}): run 'waybill receipts verify'`);
    }
    if (this.head.size > 0 && (!stored || stored.treeSize < this.head.size)) {
      this.latestCheckpoint = this.signCheckpoint();
    } else if (stored) {
      this.latestCheckpoint = { size: stored.treeSize, root: Buffer.from(stored.rootHash, "hex"), kid: stored.kid, note: stored.note };
    }
  }

  /** The head of a tree whose full tiles are stored (size a multiple of 256, or below the first full tile). */
  private loadHead(size: number): Head {
    const partial: Hash[][] = [];
    for (let level = 0; level === 0 || TILE_WIDTH ** level <= size; level++) {
      const tileIndex = Math.floor(size / tileSpan(level));
      const width = Math.floor(size / TILE_WIDTH ** level) % TILE_WIDTH;
      const first = tileIndex * TILE_WIDTH;
      partial[level] = level === 0 ? this.store.leafHashes(first, first + width) : Array.from({ length: width }, (_, j) => this.store.tileRoot(level - 1, first + j));
    }
    const head: Head = { size, range: new CompactRange(), partial };
    this.head = head;
    head.range = CompactRange.of(this.nodes(), size);
    return head;
  }
}

function cloneHead(head: Head): Head {
  return { size: head.size, range: head.range.clone(), partial: head.partial.map((hashes) => hashes.slice()) };
}
