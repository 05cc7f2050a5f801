import { systemClock, type Clock } from "../clock.ts";
import type { Db } from "../db/client.ts";
import { newId } from "../ids.ts";
import { canonicalJson, sha256Hex } from "./canonical.ts";
import { compactStoredBodies } from "./compact-migration.ts";
import { composeBody, principalPartText, type CompactBody } from "./compact-body.ts";
import { backfillLanes, laneKeyOfRequest } from "./lane-key.ts";
import type { AppendedReceipt, ReceiptEntry, ReceiptLedger } from "./ledger.ts";
import { ReceiptLog } from "./log/log.ts";
import { resolveLogOrigin } from "./log/origin.ts";
import { ReceiptPartStore } from "./part-store.ts";
import { publishedKeySet, type PublishedKeySet } from "./public-key.ts";
import { ensureSigningKey, listPublicKeys, type SigningKey } from "./signer.ts";

export interface WaybillReceiptLedger extends ReceiptLedger {
  /** The keys a verifier needs, as GET /v1/receipts/public-key publishes them. */
  publishedKeys(): PublishedKeySet;
  /** The transparency log every receipt is a leaf of; join it to the group committer. */
  readonly log: ReceiptLog;
  /** The shared receipt parts; join them to the group committer too. */
  readonly parts: ReceiptPartStore;
  /** Another process may have rotated the signing key: sign with the newest from now on. */
  reloadSigningKey(): void;
}

export interface LedgerOptions {
  clock?: Clock;
  /** Checkpoint origin and note key name (see log/origin.ts). */
  origin?: string;
  publicUrl?: string;
}

/**
 * The receipt ledger of one database. A receipt is a row whose body hash is the next leaf of the
 * log; its index is known from the log's head in memory (no read per append), and the checkpoint
 * that signs it is written by the log just before the batch commits.
 */
export function createReceiptLedger(db: Db, options: LedgerOptions = {}): WaybillReceiptLedger {
  const clock = options.clock ?? systemClock;
  let key: SigningKey = ensureSigningKey(db, clock);
  const origin = resolveLogOrigin(db, { origin: options.origin, publicUrl: options.publicUrl });
  backfillLanes(db);
  const parts = new ReceiptPartStore(db);
  compactStoredBodies(db, parts);
  const log = ReceiptLog.open(db, { origin, key: () => key, clock });
  const insert = db.$client.prepare(
    `INSERT INTO receipts (seq, id, issued_at, skill, account_id, principal_part, request_part, factors_part, model_part,
                           as_of, known_at, response_sha256, hash, lane)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );

  return {
    log,
    parts,
    append(_tx: Db, entry: ReceiptEntry): AppendedReceipt {
      const logIndex = log.nextIndex();
      const { principal } = entry;
      const request = entry.canonical?.request ?? canonicalJson(entry.request);
      const requestDigest = Bun.SHA256.hash(request) as Uint8Array;
      const body: CompactBody = {
        logIndex,
        id: newId("rcpt", entry.issuedAt),
        issuedAt: entry.issuedAt,
        knownAt: entry.knownAt,
        skill: entry.skill,
        accountId: principal.accountId,
        asOf: entry.asOf,
        principal: principalPartText({
          auth_obj_id: principal.authObjId,
          key_id: principal.keyId,
          scopes: principal.scopes ? [...principal.scopes] : null,
          tier: principal.tier,
        }),
        request,
        requestSha256: Buffer.from(requestDigest).toString("hex"),
        factors: entry.canonical?.factors ?? canonicalJson(entry.factorVersions),
        model: JSON.stringify(entry.modelVersion),
        responseSha256: entry.responseSha256 ?? sha256Hex(canonicalJson(entry.response)),
      };
      const leafEntry = Bun.SHA256.hash(composeBody(body)) as Uint8Array;
      insert.run(
        logIndex + 1,
        body.id,
        entry.issuedAt,
        entry.skill,
        principal.accountId,
        parts.idOf(body.principal),
        parts.idOf(request, requestDigest),
        parts.idOf(body.factors),
        parts.idOf(body.model),
        entry.asOf,
        entry.knownAt,
        Buffer.from(body.responseSha256, "hex"),
        leafEntry,
        laneKeyOfRequest(entry.request),
      );
      log.stage(leafEntry);
      return { id: body.id, seq: logIndex + 1, logIndex, hash: Buffer.from(leafEntry).toString("hex") };
    },
    publishedKeys: () => publishedKeySet(listPublicKeys(db), key.kid, origin),
    reloadSigningKey() {
      key = ensureSigningKey(db, clock);
    },
  };
}
