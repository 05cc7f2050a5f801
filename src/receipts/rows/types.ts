import type { Store } from "../../db/client.ts";
import type { MaybePromise } from "../../db/maybe-async.ts";

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
 * Everything the receipt ledger and its log read and write, behind one port with two
 * implementations: the SQLite file's prepared statements, synchronous, because the answered path
 * runs them on every call (sqlite.ts); and drizzle's builders, awaited, for any other engine
 * (portable.ts, which PostgreSQL runs). `tx` is the group-commit batch's transaction handle where
 * the call belongs to a batch; reads without one see what is committed.
 */
export interface ReceiptRows {
  /** Whether other processes append to the same log (PostgreSQL replicas): batches then take the log's lock. */
  readonly shared: boolean;
  insertReceipt(tx: Store, row: ReceiptRow): MaybePromise<void>;
  findPart(tx: Store, sha256: Uint8Array): MaybePromise<number | undefined>;
  insertPart(tx: Store, sha256: Uint8Array, text: string): MaybePromise<number>;
  /** A full hash tile's bytes, if stored. */
  tile(level: number, index: number): MaybePromise<Uint8Array | undefined>;
  putTile(tx: Store, level: number, index: number, hashes: Uint8Array): MaybePromise<void>;
  tileCount(level: number): MaybePromise<number>;
  /** Leaf entries (receipts.hash) of log indexes [from, to), in order. */
  entries(from: number, to: number, tx?: Store): MaybePromise<Buffer[]>;
  receiptCount(): MaybePromise<number>;
  latestCheckpoint(tx?: Store): MaybePromise<CheckpointRow | undefined>;
  insertCheckpoint(tx: Store, row: CheckpointRow & { signedAt: number }): MaybePromise<void>;
  newestSigningKey(tx?: Store): MaybePromise<SigningKeyRow | undefined>;
  /** Every signing key's public half, newest first. */
  publicKeys(): MaybePromise<{ kid: string; publicKey: string; createdAt: number }[]>;
  insertSigningKey(tx: Store, row: SigningKeyRow): MaybePromise<void>;
  /**
   * Shared logs only: wait for the log's lock, held until `tx` ends, so batches of every process
   * append one after another.
   */
  lockLog(tx: Store): MaybePromise<void>;
  setting(key: string, tx?: Store): MaybePromise<string | undefined>;
  putSetting(tx: Store, key: string, value: string): MaybePromise<void>;
}
