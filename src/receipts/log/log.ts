import type { Clock } from "../../clock.ts";
import type { Store } from "../../db/client.ts";
import type { BatchParticipant } from "../../db/group-commit.ts";
import type { CheckpointRow, ReceiptRows } from "../rows/types.ts";
import type { SigningKey } from "../signer.ts";
import {
  CompactRange,
  consistencyProof,
  hashesEqual,
  inclusionProof,
  leafHash,
  type Hash,
  type NodeSource,
} from "./merkle.ts";
import { allInOrder } from "../../db/pipelined.ts";
import { signedCheckpointProblem } from "../verify.ts";
import { checkpointText, signNote } from "./note.ts";
import { leafHashesOf, reduceHashes, TileStore, TILE_HEIGHT, TILE_WIDTH } from "./tiles.ts";

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

/** The log's signing key, and (on a shared log) a way to pick up a key another process rotated in. */
export interface LogKeys {
  current(): SigningKey;
  /** Called under the log's lock with the newest key's kid; loads it when it is not the current one. */
  follow(tx: Store, newestKid: string | undefined): Promise<void>;
}

export interface LogOptions {
  origin: string;
  keys: LogKeys;
  clock: Clock;
  /** Runs the opening catch-up in one transaction (it may sign the upgrade checkpoint). */
  transaction<T>(work: (tx: Store) => Promise<T>): Promise<T>;
}

const toCheckpoint = (row: CheckpointRow): SignedCheckpoint => ({
  size: row.treeSize,
  root: Buffer.from(row.rootHash, "hex"),
  kid: row.kid,
  note: row.note,
});

/**
 * The receipt transparency log (docs/receipts.md). Receipts are appended inside a group-commit
 * batch; when the batch's writes are done and before its COMMIT, the new leaves go into the tree
 * (full tiles written in the same transaction) and one checkpoint is signed and stored, so every
 * response of the batch is covered by a durable, signed checkpoint before it is sent.
 */
export class ReceiptLog implements BatchParticipant {
  private head: Head;
  private staged: Hash[] = [];
  private beforeBatch: HeadSnapshot | null = null;
  private sealed: SignedCheckpoint | null = null;
  /** Checkpoints of committed batches, oldest first, published once their batch is on disk (null: a batch without receipts). */
  private awaitingDurable: (SignedCheckpoint | null)[] = [];
  private latestCheckpoint: SignedCheckpoint | null;
  /** Full tiles the open batch completed, written just before its checkpoint. */
  private tileWrites: { level: number; index: number; hashes: Uint8Array }[] = [];
  /** A batch is between batchStarted and its outcome: the head is the batch's to change. */
  private batchOpen = false;
  private readonly store: TileStore;
  private readonly origin: string;
  private readonly keys: LogKeys;
  private readonly clock: Clock;

  private constructor(
    private readonly rows: ReceiptRows,
    options: LogOptions,
  ) {
    this.store = new TileStore(rows);
    this.origin = options.origin;
    this.keys = options.keys;
    this.clock = options.clock;
    this.head = { size: 0, range: new CompactRange(), partial: [[]] };
    this.latestCheckpoint = null;
  }

  /**
   * Load the head from the stored tiles and receipts. Receipts not yet in the tiles (those written
   * before the log existed, format waybill.receipt/2) are added now, and a checkpoint covering them
   * is signed: the upgrade migration, in one transaction.
   */
  static async open(rows: ReceiptRows, options: LogOptions): Promise<ReceiptLog> {
    const log = new ReceiptLog(rows, options);
    await options.transaction((tx) => log.catchUp(tx));
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

  /**
   * A shared log (PostgreSQL replicas): wait for the log's lock, then catch the head up with what
   * other replicas appended since this one's last batch, and pick up a rotated signing key. Indexes
   * handed out in this batch then follow every committed leaf of every replica. The SQLite file has
   * one appending process: nothing to do.
   */
  async batchStarted(tx: Store): Promise<void> {
    this.batchOpen = true;
    if (this.rows.shared) await this.followShared(tx);
  }

  async beforeCommit(tx: Store): Promise<void> {
    if (this.staged.length === 0) return;
    this.beforeBatch = snapshotOf(this.head);
    for (const leaf of this.staged) this.applyLeaf(leaf, true);
    await this.writeAndSign(tx);
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
    if (this.beforeBatch) this.head = restored(this.beforeBatch);
    this.reset();
  }

  /**
   * A shared log, outside batches (the log's routes, the audit report): catch up with checkpoints
   * other replicas signed, so what is served is the newest. Skipped while this process's own batch
   * holds the head; that batch catches up itself.
   */
  async follow(): Promise<void> {
    if (this.rows.shared && !this.batchOpen) await this.followCommitted();
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

  /**
   * Run work that reads the log's tiles (inclusionProof, consistencyProof, tile)
   * once every tile it needs is loaded.
   */
  reading<T>(work: () => T): Promise<T> {
    return this.store.reading(work);
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
    if (
      !Number.isSafeInteger(index * TILE_WIDTH + count) ||
      index * TILE_WIDTH + count > Math.floor(this.publishedSize() / TILE_WIDTH ** level)
    )
      return null;
    if (index < Math.floor(this.head.size / tileSpan(level)))
      return this.store.fullTile(level, index)?.slice(0, count) ?? null;
    const partial = this.head.partial[level] ?? [];
    return count <= partial.length ? partial.slice(0, count) : null;
  }

  /** Leaf entries of entry bundle `index`: the full bundle, or its first `width` entries. */
  async entries(index: number, width: number | null): Promise<Buffer[] | null> {
    const from = index * TILE_WIDTH;
    const to = from + (width ?? TILE_WIDTH);
    if (!Number.isSafeInteger(to) || to > this.publishedSize()) return null;
    return this.rows.entries(from, to);
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
    this.rows.endBatch();
    this.staged = [];
    this.beforeBatch = null;
    this.sealed = null;
    this.tileWrites = [];
    this.batchOpen = false;
  }

  /** The batch's rows, completed tiles and signed checkpoint, started together (one round trip on PostgreSQL). */
  private async writeAndSign(tx: Store): Promise<void> {
    const receipts = this.rows.writeBatch(tx);
    const tiles = this.tileWrites.map((tile) => this.rows.putTile(tx, tile.level, tile.index, tile.hashes));
    const { checkpoint, stored } = this.signCheckpoint(tx);
    await allInOrder([receipts, ...tiles, stored]);
    this.sealed = checkpoint;
  }

  private async followShared(tx: Store): Promise<void> {
    const { checkpoint: latest, newestKid, entries } = await this.rows.openBatch(tx, this.head.size);
    await this.keys.follow(tx, newestKid);
    if (latest) await this.catchUpTo(latest, tx, entries);
    else if (this.head.size > 0)
      throw new Error("the receipt log's checkpoints are gone: run 'waybill receipts verify'");
  }

  private async followCommitted(): Promise<void> {
    const latest = await this.rows.latestCheckpoint();
    // This process's own batch may have started (and caught up) while the read was on its way.
    if (latest && !this.batchOpen && latest.treeSize > this.head.size) await this.catchUpTo(latest);
  }

  /**
   * Bring the head to a checkpoint another replica signed: its leaves are read (their tiles are
   * already stored) and the result must have the checkpoint's root, or the head stays as it was.
   */
  private async catchUpTo(checkpoint: CheckpointRow, tx?: Store, read?: Buffer[]): Promise<void> {
    const from = this.head.size;
    if (checkpoint.treeSize < from) {
      throw new Error(
        `the receipt log shrank from ${from} to ${checkpoint.treeSize} leaves: run 'waybill receipts verify'`,
      );
    }
    if (checkpoint.treeSize > from) {
      // `read`: the leaves after `from`, read with the checkpoint (openBatch); otherwise read now.
      const entries =
        read?.length === checkpoint.treeSize - from ? read : await this.rows.entries(from, checkpoint.treeSize, tx);
      // Moved meanwhile, or (following outside a batch) this process's batch now holds the head: it catches up itself.
      if (this.head.size !== from || (tx === undefined && this.batchOpen)) return;
      const caughtUp = cloneHead(this.head);
      const previous = this.head;
      this.head = caughtUp;
      for (const leaf of leafHashesOf(entries)) this.applyLeaf(leaf, false);
      if (
        caughtUp.size !== checkpoint.treeSize ||
        Buffer.from(caughtUp.range.root()).toString("hex") !== checkpoint.rootHash
      ) {
        this.head = previous;
        throw new Error(
          `the receipts no longer hash to the root of the checkpoint at tree size ${checkpoint.treeSize}: run 'waybill receipts verify'`,
        );
      }
    }
    if (!this.latestCheckpoint || this.latestCheckpoint.size < checkpoint.treeSize)
      this.latestCheckpoint = toCheckpoint(checkpoint);
  }

  /** `write`: this process completes the tile, so it stores it (false when catching up with tiles others stored). */
  private applyLeaf(leaf: Hash, write: boolean): void {
    const head = this.head;
    head.range.append(leaf);
    head.size += 1;
    partialTileAt(head, 0).push(leaf);
    for (let level = 0; ; level++) {
      const hashes = partialTileAt(head, level);
      if (hashes.length !== TILE_WIDTH) break;
      const tileIndex = Math.floor(head.size / tileSpan(level)) - 1;
      if (write) this.tileWrites.push({ level, index: tileIndex, hashes: Buffer.concat(hashes) });
      const tileRoot = head.range.completed((level + 1) * TILE_HEIGHT);
      if (!tileRoot) throw new Error("the log's right edge lost a completed tile");
      head.partial[level] = [];
      partialTileAt(head, level + 1).push(tileRoot);
    }
  }

  /** Sign the head and start storing the checkpoint. */
  private signCheckpoint(tx: Store): { checkpoint: SignedCheckpoint; stored: Promise<void> } {
    const key = this.keys.current();
    const root = this.head.range.root();
    const rootBytes = Buffer.from(root);
    const size = this.head.size;
    const note = signNote(
      checkpointText({ origin: this.origin, size, root: rootBytes }),
      this.origin,
      rawPublicKeyOf(key),
      key.privateKey,
    );
    const checkpoint = { size, root, kid: key.kid, note };
    const stored = this.rows.insertCheckpoint(tx, {
      treeSize: size,
      rootHash: rootBytes.toString("hex"),
      kid: key.kid,
      note,
      signedAt: this.clock.now(),
    });
    return { checkpoint, stored };
  }

  private async catchUp(tx: Store): Promise<void> {
    await this.rows.lockLog(tx);
    const receiptCount = await this.rows.receiptCount();
    const rowCount = await this.rows.receiptRows();
    if (rowCount !== receiptCount) {
      throw new Error(
        `the receipt log runs to seq ${receiptCount} but holds ${rowCount} receipts: ${receiptCount - rowCount} were deleted from its middle; run 'waybill receipts verify'`,
      );
    }
    const tileCount = await this.rows.tileCount(0);
    const tiledSize = Math.min(tileCount * TILE_WIDTH, receiptCount - (receiptCount % TILE_WIDTH));
    this.head = await this.loadHead(tiledSize);
    for (let from = tiledSize; from < receiptCount; from += 10_000) {
      const entries = await this.rows.entries(from, Math.min(receiptCount, from + 10_000));
      for (const leaf of leafHashesOf(entries)) this.applyLeaf(leaf, true);
    }
    const stored = await this.rows.latestCheckpoint();
    // Never sign a checkpoint inconsistent with one already signed (C2SP tlog-checkpoint): a log that
    // lost receipts, or whose receipts no longer hash to the signed root, is not served. Nor one on
    // top of a latest checkpoint that is not a valid signed note, nor over log-era receipts that no
    // checkpoint covers (docs/receipts.md, "What the server refuses to sign").
    if (stored) {
      // Its own origin: a log renamed since (another configured origin) keeps older checkpoints under the old name.
      const problem = signedCheckpointProblem(stored, await this.rows.publicKeys());
      if (problem) {
        throw new Error(
          `the latest receipt log checkpoint (tree size ${stored.treeSize}) is not valid: ${problem}; run 'waybill receipts verify'`,
        );
      }
    }
    // Full tiles are written in the transaction of the checkpoint that completes them.
    if (stored && tileCount < Math.floor(stored.treeSize / TILE_WIDTH)) {
      throw new Error(
        `the receipt log's tiles end at ${tileCount * TILE_WIDTH} leaves but a checkpoint of ${stored.treeSize} was signed: tiles were deleted; run 'waybill receipts verify'`,
      );
    }
    const coveredSize = stored?.treeSize ?? 0;
    if (this.head.size > coveredSize) {
      const [newest] = await this.rows.receiptPage(this.head.size - 1, 1);
      // Receipts written before the log (stored whole, format waybill.receipt/2) come first and are
      // signed here once, by the upgrade; every later receipt committed together with its checkpoint.
      if (newest && !newest.whole) {
        throw new Error(
          `receipts from seq ${coveredSize + 1} to ${this.head.size} are covered by no signed checkpoint: checkpoints were deleted, and the server signs no checkpoint over receipts it cannot vouch for; run 'waybill receipts verify'`,
        );
      }
    }
    if (stored && stored.treeSize > this.head.size) {
      throw new Error(
        `the receipt log holds ${this.head.size} receipts but a checkpoint of ${stored.treeSize} was signed: receipts were deleted (run 'waybill receipts verify')`,
      );
    }
    if (
      stored &&
      stored.treeSize === this.head.size &&
      !hashesEqual(this.head.range.root(), Buffer.from(stored.rootHash, "hex"))
    ) {
      throw new Error(
        `the receipts no longer hash to the root of the latest checkpoint (tree size ${stored.treeSize}): run 'waybill receipts verify'`,
      );
    }
    if (this.head.size > 0 && (!stored || stored.treeSize < this.head.size)) {
      await this.writeAndSign(tx);
      this.latestCheckpoint = this.sealed;
      this.sealed = null;
    } else if (stored) {
      this.latestCheckpoint = toCheckpoint(stored);
    }
    this.tileWrites = [];
  }

  /** The head of a tree whose full tiles are stored (size a multiple of 256, or below the first full tile). */
  private async loadHead(size: number): Promise<Head> {
    const lastTile = Math.floor(size / TILE_WIDTH);
    const leaves = await this.rows.entries(lastTile * TILE_WIDTH, size);
    return this.store.reading(() => {
      const partial: Hash[][] = [];
      for (let level = 0; level === 0 || TILE_WIDTH ** level <= size; level++) {
        const tileIndex = Math.floor(size / tileSpan(level));
        const width = Math.floor(size / TILE_WIDTH ** level) % TILE_WIDTH;
        const first = tileIndex * TILE_WIDTH;
        partial[level] =
          level === 0
            ? leafHashesOf(leaves)
            : Array.from({ length: width }, (_, j) => this.store.tileRoot(level - 1, first + j));
      }
      const head: Head = { size, range: new CompactRange(), partial };
      this.head = head;
      head.range = CompactRange.of(this.nodes(), size);
      return head;
    });
  }
}

function cloneHead(head: Head): Head {
  return { size: head.size, range: head.range.clone(), partial: head.partial.map((hashes) => hashes.slice()) };
}

/**
 * What a batch needs to put the head back if it rolls back, without copying the partial tiles (up
 * to 255 hashes a level) every batch: applyLeaf only pushes onto a level's array, or replaces a full
 * one with a new array, so the arrays as they were and their lengths are enough. The compact range
 * is a few dozen hashes at most and is copied.
 */
interface HeadSnapshot {
  size: number;
  range: CompactRange;
  /** Each level's array as it was, with its length then. */
  partial: { hashes: Hash[]; length: number }[];
}

/** The partial tile of `level`, started empty the first time a tile of the level below completes. */
function partialTileAt(head: Head, level: number): Hash[] {
  const existing = head.partial[level];
  if (existing) return existing;
  const started: Hash[] = [];
  head.partial[level] = started;
  return started;
}

function snapshotOf(head: Head): HeadSnapshot {
  return {
    size: head.size,
    range: head.range.clone(),
    partial: head.partial.map((hashes) => ({ hashes, length: hashes.length })),
  };
}

function restored(snapshot: HeadSnapshot): Head {
  const partial = snapshot.partial.map(({ hashes, length }) => {
    hashes.length = length;
    return hashes;
  });
  return { size: snapshot.size, range: snapshot.range, partial };
}

/** The raw public key of a signing key, decoded once per key rather than once per checkpoint. */
const rawPublicKeys = new WeakMap<SigningKey, Buffer>();

function rawPublicKeyOf(key: SigningKey): Buffer {
  let raw = rawPublicKeys.get(key);
  if (!raw) {
    raw = Buffer.from(key.publicKey, "base64url");
    rawPublicKeys.set(key, raw);
  }
  return raw;
}
