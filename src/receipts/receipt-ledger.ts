import { systemClock, type Clock } from "../clock.ts";
import type { Db } from "../db/client.ts";
import { newId } from "../ids.ts";
import { canonicalJson, sha256Hex } from "./canonical.ts";
import { RECEIPT_FORMAT, type ReceiptBody } from "./format.ts";
import { backfillLanes, laneKeyOfRequest } from "./lane-key.ts";
import type { AppendedReceipt, ReceiptEntry, ReceiptLedger } from "./ledger.ts";
import { ReceiptLog } from "./log/log.ts";
import { resolveLogOrigin } from "./log/origin.ts";
import { publishedKeySet, type PublishedKeySet } from "./public-key.ts";
import { ensureSigningKey, listPublicKeys, type SigningKey } from "./signer.ts";

export interface WaybillReceiptLedger extends ReceiptLedger {
  /** The keys a verifier needs, as GET /v1/receipts/public-key publishes them. */
  publishedKeys(): PublishedKeySet;
  /** The transparency log every receipt is a leaf of; join it to the group committer. */
  readonly log: ReceiptLog;
  /** Another process may have rotated the signing key: sign with the newest from now on. */
  reloadSigningKey(): void;
}

export interface LedgerOptions {
  clock?: Clock;
  /** Checkpoint origin and note key name (see log/origin.ts). */
  origin?: string;
  publicUrl?: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The receipt ledger of one database. A receipt is a row whose body hash is the next leaf of the
 * log; its index is known from the log's head in memory (no read per append), and the checkpoint
 * that signs it is written by the log just before the batch commits.
 */
export function createReceiptLedger(db: Db, options: LedgerOptions = {}): WaybillReceiptLedger {
  const clock = options.clock ?? systemClock;
  let key: SigningKey = ensureSigningKey(db, clock);
  const origin = resolveLogOrigin(db, { origin: options.origin, publicUrl: options.publicUrl });
  const log = ReceiptLog.open(db, { origin, key: () => key, clock });
  backfillLanes(db);
  const insert = db.$client.prepare(
    `INSERT INTO receipts (seq, id, issued_at, skill, account_id, auth_obj_id, tier, body, hash, lane)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );

  return {
    log,
    append(_tx: Db, entry: ReceiptEntry): AppendedReceipt {
      const logIndex = log.nextIndex();
      const { principal } = entry;
      const body: ReceiptBody = {
        v: RECEIPT_FORMAT,
        id: newId("rcpt", entry.issuedAt),
        log_index: logIndex,
        issued_at: iso(entry.issuedAt),
        skill: entry.skill,
        account_id: principal.accountId,
        key_id: principal.keyId,
        auth_obj_id: principal.authObjId,
        tier: principal.tier,
        scopes: principal.scopes ? [...principal.scopes] : null,
        request: entry.request,
        request_sha256: sha256Hex(canonicalJson(entry.request)),
        response_sha256: entry.responseSha256 ?? sha256Hex(canonicalJson(entry.response)),
        factor_versions: entry.factorVersions,
        model_version: entry.modelVersion,
        as_of: entry.asOf,
        known_at: iso(entry.knownAt),
      };
      const canonicalBody = canonicalJson(body);
      const leafEntry = Bun.SHA256.hash(canonicalBody) as Uint8Array;
      const hash = Buffer.from(leafEntry).toString("hex");
      insert.run(
        logIndex + 1,
        body.id,
        entry.issuedAt,
        entry.skill,
        principal.accountId,
        principal.authObjId,
        principal.tier,
        canonicalBody,
        hash,
        laneKeyOfRequest(entry.request),
      );
      log.stage(leafEntry);
      return { id: body.id, seq: logIndex + 1, logIndex, hash };
    },
    publishedKeys: () => publishedKeySet(listPublicKeys(db), key.kid, origin),
    reloadSigningKey() {
      key = ensureSigningKey(db, clock);
    },
  };
}
