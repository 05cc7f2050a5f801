import { createPrivateKey, sign } from "node:crypto";
import type { Principal } from "../../src/access/principal.ts";
import type { Db } from "../../src/db/client.ts";
import { canonicalJson, sha256Hex } from "../../src/receipts/canonical.ts";
import { GENESIS_PREV_HASH, LEGACY_RECEIPT_FORMAT, type LegacyReceiptBody } from "../../src/receipts/format.ts";
import { ensureSigningKey } from "../../src/receipts/signer.ts";
import { ManualClock } from "../../src/clock.ts";
import { T0 } from "./fixtures.ts";

/**
 * Receipts as the pre-log version wrote them (format waybill.receipt/2): a hash chain, each body
 * signed on its own with the instance key. What an upgraded database holds before its first start.
 */
export function writeLegacyReceipts(db: Db, principal: Principal, count: number): void {
  const key = ensureSigningKey(db, new ManualClock(T0));
  const privateKey = createPrivateKey({
    key: Buffer.from(db.$client.query<{ pk: string }, [string]>("SELECT private_key AS pk FROM signing_keys WHERE kid = ?").get(key.kid)!.pk, "base64url"),
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
      request_sha256: sha256Hex(canonicalJson({ origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" })),
      response_sha256: sha256Hex(`answer ${seq}`),
      factor_versions: [],
      model_version: "cost-basis/1.0.0",
      as_of: "2026-03-02",
      known_at: new Date(issuedAt).toISOString(),
    };
    const text = canonicalJson(body);
    const hash = sha256Hex(text);
    db.$client
      .query(
        `INSERT INTO receipts (seq, id, issued_at, skill, account_id, auth_obj_id, tier, body, prev_hash, hash, signature, kid)
         VALUES (?, ?, ?, 'rate-lookup', ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        seq,
        body.id,
        issuedAt,
        principal.accountId,
        principal.authObjId,
        principal.tier,
        text,
        prevHash,
        hash,
        sign(null, Buffer.from(text), privateKey).toString("base64url"),
        key.kid,
      );
    prevHash = hash;
  }
}
