import type { Store } from "../../db/client.ts";
import type { StoredReceipt } from "../format.ts";

/** One receipts row as the ledger appends it (docs/receipts.md, "Storage"). */
export interface ReceiptRow {
  seq: number;
  id: string;
  issuedAt: number;
  skill: string;
  accountId: string;
  principalPart: number;
  requestPart: number;
  factorsPart: number;
  modelPart: number;
  asOf: string;
  knownAt: number;
  responseSha256: Uint8Array;
  hash: Uint8Array;
  lane: string | null;
  /** The answered call's usage, carried by its receipt (docs/performance.md, "One row per answered call"). */
  requestId: string;
  keyId: string;
  latencyMs: number;
}

/** Where a shared log stands when a batch takes its lock. */
export interface BatchHead {
  checkpoint: CheckpointRow | undefined;
  /** The newest signing key's kid (undefined: no key stored). */
  newestKid: string | undefined;
  /** Leaf entries after the batch's known size up to the checkpoint; undefined: read them with entries(). */
  entries: Buffer[] | undefined;
}

export interface CheckpointRow {
  treeSize: number;
  rootHash: string; // lowercase hex
  kid: string;
  note: string;
}

export interface SigningKeyRow {
  kid: string;
  publicKey: string;
  privateKey: string;
  createdAt: number;
}

/**
 * Everything the receipt ledger and its log read and write, awaited on every engine. The SQLite
 * file runs bun:sqlite statements prepared once (sqlite.ts), because the answered path runs them on
 * every call and drizzle maps a statement's parameters on every run; any other engine runs
 * drizzle's builders (portable.ts, which PostgreSQL runs). `tx` is the group-commit batch's transaction handle where
 * the call belongs to a batch; reads without one see what is committed.
 */
export interface ReceiptRows {
  /** Whether other processes append to the same log (PostgreSQL replicas): batches then take the log's lock. */
  readonly shared: boolean;
  /**
   * A receipt row of the open batch. The SQLite file inserts it at once; PostgreSQL keeps it until
   * writeBatch, which inserts every row of the batch in one statement (docs/postgresql.md, "Round
   * trips per answer").
   */
  insertReceipt(tx: Store, row: ReceiptRow): Promise<void>;
  /** Write the rows insertReceipt kept for this batch (inside its transaction, before its checkpoint). */
  writeBatch(tx: Store): Promise<void>;
  /** The batch rolled back or committed: forget what it kept. */
  endBatch(): void;
  findPart(tx: Store, sha256: Uint8Array): Promise<number | undefined>;
  insertPart(tx: Store, sha256: Uint8Array, text: string): Promise<number>;
  /** A full hash tile's bytes, if stored. */
  tile(level: number, index: number): Promise<Uint8Array | undefined>;
  putTile(tx: Store, level: number, index: number, hashes: Uint8Array): Promise<void>;
  tileCount(level: number): Promise<number>;
  /** Leaf entries (receipts.hash) of log indexes [from, to), in order. */
  entries(from: number, to: number, tx?: Store): Promise<Buffer[]>;
  /** The highest seq stored, which is the log's size when no receipt is missing. */
  receiptCount(): Promise<number>;
  /** How many receipts rows there are (a full count, read once at start-up to find a missing one). */
  receiptRows(): Promise<number>;
  latestCheckpoint(tx?: Store): Promise<CheckpointRow | undefined>;
  insertCheckpoint(tx: Store, row: CheckpointRow & { signedAt: number }): Promise<void>;
  /** The smallest checkpoint of at least `size` leaves: the one signed with the batch of receipt seq `size`. */
  checkpointCovering(size: number): Promise<CheckpointRow | undefined>;
  newestSigningKey(tx?: Store): Promise<SigningKeyRow | undefined>;
  /** Every signing key's public half, newest first. */
  publicKeys(): Promise<{ kid: string; publicKey: string; createdAt: number }[]>;
  insertSigningKey(tx: Store, row: SigningKeyRow): Promise<void>;
  /**
   * Shared logs only: wait for the log's lock, held until `tx` ends, so batches of every process
   * append one after another.
   */
  lockLog(tx: Store): Promise<void>;
  /**
   * Shared logs only, at a batch's start: lockLog, then where the log stands, read after the lock
   * (one round trip on PostgreSQL: a server-side function, docs/postgresql.md).
   */
  openBatch(tx: Store, knownSize: number): Promise<BatchHead>;
  setting(key: string, tx?: Store): Promise<string | undefined>;
  /** For `receipts verify`: every stored checkpoint, by tree size. */
  checkpoints(): Promise<CheckpointRow[]>;
  /** For `receipts verify`: up to `limit` receipts after `afterSeq`, in order. */
  receiptPage(afterSeq: number, limit: number): Promise<CompactRow[]>;
  /** Shared parts by id (missing ids are absent from the map). */
  parts(ids: readonly number[]): Promise<Map<number, Part>>;
  /** One receipt as readers see it, its body rebuilt or as stored whole. */
  storedReceipt(seq: number): Promise<StoredReceipt | undefined>;
  putSetting(tx: Store, key: string, value: string): Promise<void>;
}

/** A receipts row as the whole-log check reads it: ids of its parts, binary digests, no body text. */
export interface CompactRow {
  seq: number;
  id: string;
  issuedAt: number;
  skill: string;
  accountId: string;
  principalPart: number | null;
  requestPart: number | null;
  factorsPart: number | null;
  modelPart: number | null;
  asOf: string | null;
  knownAt: number | null;
  /** Lowercase hex (SQLite's hex() is cheaper than a Buffer per row). */
  responseSha256: string | null;
  hash: Uint8Array;
  /** 1 when the body is stored whole (legacy receipts): checked by the full per-receipt check instead. */
  whole: number;
}

export interface Part {
  text: string;
  sha256Hex: string;
}
