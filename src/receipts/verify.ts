import type { KeyObject } from "node:crypto";
import type { Db } from "../db/client.ts";
import { sha256Hex } from "./canonical.ts";
import { GENESIS_PREV_HASH, RECEIPT_FORMAT, STORED_RECEIPT_COLUMNS, type ReceiptBody, type StoredReceipt } from "./format.ts";
import { loadVerificationKeys, signatureIsValid } from "./signer.ts";

/** What one stored receipt proves on its own and against its predecessor. */
export interface ReceiptCheck {
  /** SHA-256 of the stored body equals the stored hash. */
  hash_valid: boolean;
  /** The Ed25519 signature over the body verifies under the key named by kid. */
  signature_valid: boolean;
  /** prev_hash equals the previous receipt's hash (or the genesis value for seq 1). */
  link_valid: boolean;
  /** The indexed columns (seq, id, account, …) say what the signed body says. */
  record_matches_body: boolean;
  /** One sentence per failed check, in the order above; empty when the receipt is intact. */
  problems: string[];
}

/**
 * The one verifier: the CLI's chain walk and the audit report both judge a receipt here.
 * `expectedPrevHash` is the hash of receipt seq-1 as stored, or undefined when that receipt is missing.
 */
export function checkReceipt(row: StoredReceipt, expectedPrevHash: string | undefined, keys: ReadonlyMap<string, KeyObject>): ReceiptCheck {
  const problems: string[] = [];

  const hashValid = sha256Hex(row.body) === row.hash;
  if (!hashValid) problems.push("the stored hash is not the SHA-256 of the stored body");

  const key = keys.get(row.kid);
  const signatureValid = key !== undefined && signatureIsValid(key, row.body, row.signature);
  if (!signatureValid) problems.push(key ? "the signature does not verify" : `the signing key ${row.kid} is unknown`);

  const linkValid = expectedPrevHash !== undefined && row.prevHash === expectedPrevHash;
  if (!linkValid) {
    problems.push(
      expectedPrevHash === undefined
        ? `the previous receipt (seq ${row.seq - 1}) is missing`
        : "prev_hash does not equal the previous receipt's hash",
    );
  }

  const mismatch = recordMismatch(row);
  if (mismatch) problems.push(mismatch);

  return { hash_valid: hashValid, signature_valid: signatureValid, link_valid: linkValid, record_matches_body: !mismatch, problems };
}

/** The first column that disagrees with the signed body, or null. */
function recordMismatch(row: StoredReceipt): string | null {
  let body: Partial<ReceiptBody>;
  try {
    body = JSON.parse(row.body) as Partial<ReceiptBody>;
  } catch {
    return "the body is not JSON";
  }
  if (body.v !== RECEIPT_FORMAT) return `the body format is ${JSON.stringify(body.v)}, not ${RECEIPT_FORMAT}`;
  const pairs: [string, unknown, unknown][] = [
    ["seq", body.seq, row.seq],
    ["id", body.id, row.id],
    ["prev_hash", body.prev_hash, row.prevHash],
    ["kid", body.kid, row.kid],
    ["issued_at", body.issued_at, new Date(row.issuedAt).toISOString()],
    ["skill", body.skill, row.skill],
    ["account_id", body.account_id, row.accountId],
    ["auth_obj_id", body.auth_obj_id, row.authObjId],
    ["tier", body.tier, row.tier],
  ];
  const differing = pairs.find(([, signed, stored]) => signed !== stored);
  return differing ? `the ${differing[0]} column differs from the signed body` : null;
}

export function isIntact(check: ReceiptCheck): boolean {
  return check.problems.length === 0;
}

/** Check one stored receipt against its stored predecessor (the audit report's verification block). */
export function checkStoredReceipt(db: Db, row: StoredReceipt): ReceiptCheck {
  const previous =
    row.seq === 1
      ? GENESIS_PREV_HASH
      : db.$client.query<{ hash: string }, [number]>("SELECT hash FROM receipts WHERE seq = ?").get(row.seq - 1)?.hash;
  return checkReceipt(row, previous, loadVerificationKeys(db));
}

export interface ChainVerification {
  ok: boolean;
  /** Receipts found intact, in seq order, before the first break (all of them when ok). */
  checked: number;
  firstBrokenSeq?: number;
  problem?: string;
}

/**
 * Walk the whole chain in seq order, one row at a time, and stop at the first receipt whose hash,
 * signature, link or record fails, or at the first missing sequence number.
 * A chain cut off at the tail still verifies: only a head published elsewhere could show that.
 */
export function verifyChain(db: Db): ChainVerification {
  const keys = loadVerificationKeys(db);
  const rows = db.$client.query<StoredReceipt, []>(`SELECT ${STORED_RECEIPT_COLUMNS} FROM receipts ORDER BY seq`).iterate();
  let expectedSeq = 1;
  let prevHash = GENESIS_PREV_HASH;
  let checked = 0;
  for (const row of rows) {
    if (row.seq !== expectedSeq) {
      return {
        ok: false,
        checked,
        firstBrokenSeq: expectedSeq,
        problem: `receipt seq ${expectedSeq} is missing (the next stored receipt is seq ${row.seq})`,
      };
    }
    const check = checkReceipt(row, prevHash, keys);
    if (!isIntact(check)) return { ok: false, checked, firstBrokenSeq: row.seq, problem: check.problems.join("; ") };
    prevHash = row.hash;
    expectedSeq += 1;
    checked += 1;
  }
  return { ok: true, checked };
}
