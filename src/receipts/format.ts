import type { Tier } from "../access/tiers.ts";

/** A figure an answer used, precise enough to find the exact stored observation again. */
export interface FactorVersion {
  series_id: string;
  value: number;
  observation_date: string;
  import_id: string;
}

/** Names the body layout; a verifier refuses versions it does not know. It is inside the signed bytes. */
export const RECEIPT_FORMAT = "waybill.receipt/2";

/** prev_hash of the first receipt (seq 1). */
export const GENESIS_PREV_HASH = "0".repeat(64);

/**
 * The signed record. Every field is in the hash preimage: hash = SHA-256(JCS(body)) and
 * signature = Ed25519(JCS(body)). Because `seq` and `prev_hash` are inside, each hash commits to
 * the whole chain before it. Times are ISO 8601 UTC with milliseconds.
 */
export interface ReceiptBody {
  v: typeof RECEIPT_FORMAT;
  id: string;
  seq: number;
  prev_hash: string;
  issued_at: string;
  kid: string;
  skill: string;
  account_id: string;
  key_id: string;
  auth_obj_id: string;
  tier: Tier;
  /** Skill names; null: every skill of the tier. */
  scopes: string[] | null;
  /** The validated input, enough to re-run the skill. */
  request: unknown;
  request_sha256: string;
  /**
   * SHA-256 of the canonical answer as sent, without receipt_id and auth_obj_id (those are added
   * after signing). The answer itself is not kept: re-running `request` on the pinned data view
   * (factor_versions, as_of, known_at, model_version) reproduces it, and this digest proves it.
   */
  response_sha256: string;
  factor_versions: FactorVersion[];
  model_version: string;
  /** The data view the answer was computed on: observations dated ≤ as_of, imported ≤ known_at. */
  as_of: string;
  known_at: string;
}

/** One row of the receipts table, as every reader in this module sees it. */
export interface StoredReceipt {
  seq: number;
  id: string;
  issuedAt: number;
  skill: string;
  accountId: string;
  authObjId: string;
  tier: string;
  body: string;
  prevHash: string;
  hash: string;
  signature: string;
  kid: string;
}

/** The column list that yields StoredReceipt from raw SQL. */
export const STORED_RECEIPT_COLUMNS =
  "seq, id, issued_at AS issuedAt, skill, account_id AS accountId, auth_obj_id AS authObjId, tier, body, " +
  "prev_hash AS prevHash, hash, signature, kid";

export const RECEIPT_ID_PATTERN = /^rcpt_[0-9A-HJKMNP-TV-Z]{26}$/;
