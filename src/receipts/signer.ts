import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from "node:crypto";
import type { Clock } from "../clock.ts";
import type { Store } from "../db/client.ts";
import { inTransaction } from "../db/transaction.ts";
import type { ReceiptRows, SigningKeyRow } from "./rows/types.ts";

/**
 * The instance's Ed25519 log keys live in the same database as the log they sign
 * (table signing_keys). Why there:
 * - one file to back up: a copy of the database is a complete, verifiable unit (log + keys);
 * - restoring a backup never pairs a log with the wrong key.
 * Threat model: a checkpoint signature proves to anyone holding the published key that this
 * instance's log had that root at that size; inclusion and consistency proofs do the rest.
 * Someone who can read the database file can sign; protect the file (and its backups) as you
 * would the key itself. docs/receipts.md says more.
 */
export interface SigningKey {
  kid: string;
  /** base64url of the raw 32-byte public key. */
  publicKey: string;
  createdAt: number;
  privateKey: KeyObject;
}

export interface PublicKeyRecord {
  kid: string;
  publicKey: string;
  createdAt: number;
}

/** Key id: the first 16 hex characters of SHA-256 over the raw 32-byte public key. */
export function keyIdOf(rawPublicKey: Uint8Array): string {
  return createHash("sha256").update(rawPublicKey).digest("hex").slice(0, 16);
}

export function publicKeyObject(publicKeyBase64url: string): KeyObject {
  return createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: publicKeyBase64url }, format: "jwk" });
}

/** base64url Ed25519 signature over the UTF-8 bytes of `message`. */
export function signText(key: SigningKey, message: string): string {
  return sign(null, Buffer.from(message, "utf8"), key.privateKey).toString("base64url");
}

export function signatureIsValid(publicKey: KeyObject, message: string, signatureBase64url: string): boolean {
  const signature = Buffer.from(signatureBase64url, "base64url");
  if (signature.length !== 64) return false;
  return verify(null, Buffer.from(message, "utf8"), publicKey, signature);
}

/**
 * The newest signing key, created on first start. Runs under the log's lock (in an IMMEDIATE
 * transaction on the SQLite file), so two processes starting on a fresh database do not both
 * create one (and if they did, both keys would still verify).
 */
export async function newestSigningKey(rows: ReceiptRows, tx: Store, clock: Clock): Promise<SigningKey> {
  await rows.lockLog(tx);
  const existing = await rows.newestSigningKey(tx);
  return existing ? signingKeyOf(existing) : newSigningKey(rows, tx, clock);
}

export function signingKeyOf(row: SigningKeyRow): SigningKey {
  const privateKey = createPrivateKey({ key: Buffer.from(row.privateKey, "base64url"), format: "der", type: "pkcs8" });
  return { kid: row.kid, publicKey: row.publicKey, createdAt: row.createdAt, privateKey };
}

/**
 * A new Ed25519 key, which signs every checkpoint from now on (`waybill keys rotate-signing`; a
 * running server picks it up on its next batch). Older keys stay in the table, so the checkpoints
 * and legacy receipts they signed stay verifiable, and stay published.
 */
export async function newSigningKey(rows: ReceiptRows, tx: Store, clock: Clock): Promise<SigningKey> {
  const pair = generateKeyPairSync("ed25519");
  const publicKey = pair.publicKey.export({ format: "jwk" }).x;
  if (!publicKey) throw new Error("Ed25519 key export returned no public key.");
  const kid = keyIdOf(Buffer.from(publicKey, "base64url"));
  const newest = (await rows.newestSigningKey(tx))?.createdAt ?? 0;
  // Strictly newer than every key so far, so "the newest key" is never ambiguous.
  const createdAt = Math.max(clock.now(), newest + 1);
  const pkcs8 = pair.privateKey.export({ format: "der", type: "pkcs8" }).toString("base64url");
  await rows.insertSigningKey(tx, { kid, publicKey, privateKey: pkcs8, createdAt });
  return { kid, publicKey, createdAt, privateKey: pair.privateKey };
}

/** newSigningKey under the log's lock (`waybill keys rotate-signing`). */
export async function lockedNewSigningKey(rows: ReceiptRows, tx: Store, clock: Clock): Promise<SigningKey> {
  await rows.lockLog(tx);
  return newSigningKey(rows, tx, clock);
}

/** newestSigningKey in a transaction of its own (on the SQLite file, BEGIN IMMEDIATE). */
export function ensureSigningKey(rows: ReceiptRows, store: Store, clock: Clock): Promise<SigningKey> {
  return inTransaction(store, (tx) => newestSigningKey(rows, tx, clock));
}
