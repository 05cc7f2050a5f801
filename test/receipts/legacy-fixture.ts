import { createPrivateKey, sign } from "node:crypto";
import type { Principal } from "../../src/access/principal.ts";
import type { Db } from "../../src/db/client.ts";
import { canonicalJson, sha256Hex } from "../../src/receipts/canonical.ts";
import {
  GENESIS_PREV_HASH,
  LEGACY_RECEIPT_FORMAT,
  RECEIPT_FORMAT,
  type LegacyReceiptBody,
  type ReceiptBody,
  type StoredReceipt,
} from "../../src/receipts/format.ts";
import { ensureSigningKey } from "../../src/receipts/signer.ts";
import { ManualClock } from "../../src/clock.ts";
import { T0 } from "./fixtures.ts";
import { defined } from "../support/defined.ts";
import { sqliteReceiptRows } from "../../src/receipts/rows/sqlite.ts";

/**
 * Receipts as the pre-log version wrote them (format waybill.receipt/2): a hash chain, each body
 * signed on its own with the instance key. What an upgraded database holds before its first start.
 */
export async function writeLegacyReceipts(db: Db, principal: Principal, count: number): Promise<void> {
  const key = await ensureSigningKey(sqliteReceiptRows(db), db, new ManualClock(T0));
  const privateKey = createPrivateKey({
    key: Buffer.from(
      defined(
        db.$client
          .query<{ pk: string }, [string]>("SELECT private_key AS pk FROM signing_keys WHERE kid = ?")
          .get(key.kid),
        "the row of SELECT private_key AS pk FROM signing_keys WHERE kid = ?",
      ).pk,
      "base64url",
    ),
    format: "der",
    type: "pkcs8",
  });
  let prevHash = GENESIS_PREV_HASH;
  for (let seq = 1; seq <= count; seq++) {
    const issuedAt = T0 + seq * 1000;
    const body: LegacyReceiptBody = {
      v: LEGACY_RECEIPT_FORMAT,
      id: `rcpt_01JLEGACY${String(seq).padStart(17, "0")}`,
      seq,
      prev_hash: prevHash,
      issued_at: new Date(issuedAt).toISOString(),
      kid: key.kid,
      skill: "rate-lookup",
      account_id: principal.accountId,
      key_id: principal.keyId,
      auth_obj_id: principal.authObjId,
      tier: principal.tier,
      scopes: null,
      request: { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" },
      request_sha256: sha256Hex(
        canonicalJson({ origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" }),
      ),
      response_sha256: sha256Hex(`answer ${seq}`),
      factor_versions: [],
      model_version: "cost-basis/1.0.0",
      as_of: "2026-03-02",
      known_at: new Date(issuedAt).toISOString(),
    };
    const text = canonicalJson(body);
    const hash = sha256Hex(text);
    insertWholeReceipt(db, {
      seq,
      id: body.id,
      issuedAt,
      accountId: principal.accountId,
      authObjId: principal.authObjId,
      tier: principal.tier,
      body: text,
      hash,
      prevHash,
      signature: sign(null, Buffer.from(text), privateKey).toString("base64url"),
      kid: key.kid,
    });
    prevHash = hash;
  }
}

/** A receipts row with its text body (the skill is always rate-lookup here). */
type WholeReceipt = Omit<StoredReceipt, "skill">;

/**
 * A receipt row with its body stored whole, in whichever shape the database's receipts table has:
 * the one before compact receipts (hex hash, auth_obj_id and tier columns) or the current one.
 */
function insertWholeReceipt(db: Db, row: WholeReceipt): void {
  const columns = db.$client.query<{ name: string }, []>("PRAGMA table_info(receipts)").all();
  const beforeCompact = columns.some((column) => column.name === "auth_obj_id");
  const params = [
    row.seq,
    row.id,
    row.issuedAt,
    row.accountId,
    row.body,
    row.prevHash,
    row.hash,
    row.signature,
    row.kid,
  ];
  if (beforeCompact) {
    db.$client
      .query(
        `INSERT INTO receipts (seq, id, issued_at, skill, account_id, body, prev_hash, hash, signature, kid, auth_obj_id, tier)
         VALUES (?, ?, ?, 'rate-lookup', ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(...params, row.authObjId, row.tier);
  } else {
    db.$client
      .query(
        `INSERT INTO receipts (seq, id, issued_at, skill, account_id, body, prev_hash, hash, signature, kid)
         VALUES (?, ?, ?, 'rate-lookup', ?, ?, ?, unhex(?), ?, ?)`,
      )
      .run(...params);
  }
}

/**
 * Log-era receipts (waybill.receipt/3) as the version before compact receipts stored them: the body
 * text whole, next to the columns. Returns the bodies, by seq - 1.
 */
export function writeTextBodyReceipts(db: Db, principal: Principal, count: number): string[] {
  const bodies: string[] = [];
  for (let seq = 1; seq <= count; seq++) {
    const issuedAt = T0 + seq * 1000;
    const request = { origin: "Chicago, IL", destination: seq % 2 ? "Dallas, TX" : "Denver, CO", equipment: "DRY_VAN" };
    const body: ReceiptBody = {
      v: RECEIPT_FORMAT,
      id: `rcpt_01JCMPCT${String(seq).padStart(18, "0")}`,
      log_index: seq - 1,
      issued_at: new Date(issuedAt).toISOString(),
      skill: "rate-lookup",
      account_id: principal.accountId,
      key_id: principal.keyId,
      auth_obj_id: principal.authObjId,
      tier: principal.tier,
      scopes: principal.scopes ? [...principal.scopes] : null,
      request,
      request_sha256: sha256Hex(canonicalJson(request)),
      response_sha256: sha256Hex(`answer ${seq}`),
      factor_versions: [
        {
          series_id: "EMD_EPD2D_PTE_NUS_DPG",
          value: 3.712,
          observation_date: "2026-02-23",
          import_id: "imp_snapshot_1",
        },
      ],
      model_version: "cost-basis/1.0.0",
      as_of: "2026-03-02",
      known_at: new Date(issuedAt - 3).toISOString(),
    };
    const text = canonicalJson(body);
    const row = {
      seq,
      id: body.id,
      issuedAt,
      accountId: principal.accountId,
      authObjId: principal.authObjId,
      tier: principal.tier,
    };
    insertWholeReceipt(db, { ...row, body: text, hash: sha256Hex(text), prevHash: null, signature: null, kid: null });
    bodies.push(text);
  }
  return bodies;
}
