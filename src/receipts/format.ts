import type { Tier } from "../access/tiers.ts";

/** A figure an answer used, precise enough to find the exact stored observation again. */
export interface FactorVersion {
  series_id: string;
  value: number;
  observation_date: string;
  import_id: string;
}

/**
 * Names the body layout; a verifier refuses versions it does not know. It is inside the hashed bytes.
 * v3 receipts are leaves of the transparency log (signed through checkpoints); v2 receipts, written
 * before the log existed, are hash-chained and signed one by one, and are leaves too.
 */
export const RECEIPT_FORMAT = "waybill.receipt/3";
export const LEGACY_RECEIPT_FORMAT = "waybill.receipt/2";

/** prev_hash of the first receipt (seq 1) in the legacy chain. */
export const GENESIS_PREV_HASH = "0".repeat(64);

/**
 * The recorded answer. Every field is in the leaf entry's preimage: entry = SHA-256(JCS(body)), the
 * log index it sits at is inside it, and the random `id` keeps the entry from revealing the body.
 * Times are ISO 8601 UTC with milliseconds.
 */
export interface ReceiptBody {
  v: typeof RECEIPT_FORMAT;
  id: string;
  log_index: number;
  issued_at: string;
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

/** A body written before the log: the same fields plus its chain link and signing key. */
export interface LegacyReceiptBody extends Omit<ReceiptBody, "v" | "log_index"> {
  v: typeof LEGACY_RECEIPT_FORMAT;
  seq: number;
  prev_hash: string;
  kid: string;
}

export type AnyReceiptBody = ReceiptBody | LegacyReceiptBody;

/**
 * One receipt as every reader in this module sees it: the receipts row, with its body as the exact
 * canonical text that was hashed (rebuilt from the compact columns, or the text stored whole).
 * Log index = seq - 1.
 */
export interface StoredReceipt {
  seq: number;
  id: string;
  issuedAt: number;
  skill: string;
  accountId: string;
  /** From the body (the key grant part, or the whole stored body). */
  authObjId: string;
  tier: string;
  body: string;
  /** Hex of the leaf entry: SHA-256 of `body`. */
  hash: string;
  /** Legacy (v2) receipts only. */
  prevHash: string | null;
  signature: string | null;
  kid: string | null;
}

export const RECEIPT_ID_PATTERN = /^rcpt_[0-9A-HJKMNP-TV-Z]{26}$/;
