import { systemClock, type Clock } from "../clock.ts";
import type { Db } from "../db/client.ts";
import { newId } from "../ids.ts";
import { canonicalJson, sha256Hex } from "./canonical.ts";
import { GENESIS_PREV_HASH, RECEIPT_FORMAT, type ReceiptBody } from "./format.ts";
import type { AppendedReceipt, ReceiptEntry, ReceiptLedger } from "./ledger.ts";
import { publishedKeySet, type PublishedKeySet } from "./public-key.ts";
import { ensureSigningKey, listPublicKeys, signText, type SigningKey } from "./signer.ts";

export interface WaybillReceiptLedger extends ReceiptLedger {
  /** The keys a verifier needs, as GET /v1/receipts/public-key publishes them. */
  publishedKeys(): PublishedKeySet;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The receipt ledger of one database. The only in-memory state is the signing key; the chain head
 * is read inside the caller's transaction on every append, so a rolled-back transaction or another
 * process appending to the same file can never make this instance fork or skip a sequence number.
 * If two writers did race, PRIMARY KEY(seq) would reject the second insert.
 */
export function createReceiptLedger(db: Db, clock: Clock = systemClock): WaybillReceiptLedger {
  const key: SigningKey = ensureSigningKey(db, clock);
  return {
    append: (tx, entry) => appendReceipt(tx, key, entry),
    publishedKeys: () => publishedKeySet(listPublicKeys(db), key.kid),
  };
}

function appendReceipt(tx: Db, key: SigningKey, entry: ReceiptEntry): AppendedReceipt {
  // Raw statements on the transaction's own connection: bun:sqlite caches them per SQL text, and the
  // drizzle query builder would cost more than hashing and signing together (~75 µs per query).
  const sqlite = tx.$client;
  if (!sqlite) throw new TypeError("ReceiptLedger.append needs the Db whose connection holds the write transaction.");
  const head = sqlite.query<{ seq: number; hash: string }, []>("SELECT seq, hash FROM receipts ORDER BY seq DESC LIMIT 1").get();
  const seq = head ? head.seq + 1 : 1;
  const prevHash = head ? head.hash : GENESIS_PREV_HASH;
  const { principal } = entry;

  const body: ReceiptBody = {
    v: RECEIPT_FORMAT,
    id: newId("rcpt", entry.issuedAt),
    seq,
    prev_hash: prevHash,
    issued_at: iso(entry.issuedAt),
    kid: key.kid,
    skill: entry.skill,
    account_id: principal.accountId,
    key_id: principal.keyId,
    auth_obj_id: principal.authObjId,
    tier: principal.tier,
    scopes: principal.scopes ? [...principal.scopes] : null,
    request: entry.request,
    request_sha256: sha256Hex(canonicalJson(entry.request)),
    response_sha256: sha256Hex(canonicalJson(entry.response)),
    factor_versions: entry.factorVersions,
    model_version: entry.modelVersion,
    as_of: entry.asOf,
    known_at: iso(entry.knownAt),
  };
  const canonicalBody = canonicalJson(body);
  const hash = sha256Hex(canonicalBody);

  sqlite
    .query(
      `INSERT INTO receipts (seq, id, issued_at, skill, account_id, auth_obj_id, tier, body, prev_hash, hash, signature, kid)
       VALUES ($seq, $id, $issuedAt, $skill, $accountId, $authObjId, $tier, $body, $prevHash, $hash, $signature, $kid)`,
    )
    .run({
      seq,
      id: body.id,
      issuedAt: entry.issuedAt,
      skill: entry.skill,
      accountId: principal.accountId,
      authObjId: principal.authObjId,
      tier: principal.tier,
      body: canonicalBody,
      prevHash,
      hash,
      signature: signText(key, canonicalBody),
      kid: key.kid,
    });
  return { id: body.id, seq, hash };
}
