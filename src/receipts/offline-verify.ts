import { createHash } from "node:crypto";
import { ANSWER_ENVELOPE_FIELDS } from "./answer-bytes.ts";
import { canonicalJson } from "./canonical.ts";
import { LEGACY_RECEIPT_FORMAT, RECEIPT_FORMAT } from "./format.ts";
import { leafHash, verifyInclusion } from "./log/merkle.ts";
import { parseCheckpointText, parseNote, parseVerifierKey, verifyNote, type NoteVerifier } from "./log/note.ts";

export interface OfflineInputs {
  /** A saved audit report (RECEIPT_TRACE), or its `log` block. */
  report: unknown;
  /** A signed checkpoint note the verifier trusts (GET /log/checkpoint, or the one in the report). */
  checkpoint: string;
  /** Note verifier keys `<name>+<id>+<key>` (from GET /v1/receipts/public-key). */
  verifierKeys: string[];
  /** The answer as received, when it should be tied to the receipt. */
  response?: unknown;
}

export interface OfflineCheck {
  name: string;
  ok: boolean;
}

const sha256Hex = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/**
 * Everything `waybill verify` checks, with no server and no database: the receipt body hashes to
 * the leaf entry and records its log index, the checkpoint is signed by a given key, the inclusion
 * proof leads from the leaf to the checkpoint's root, and (optionally) the answer is the one hashed.
 */
export function verifyOffline(inputs: OfflineInputs): OfflineCheck[] {
  const checks: OfflineCheck[] = [];
  const check = (name: string, ok: boolean) => checks.push({ name, ok });
  const document = (inputs.report ?? {}) as Record<string, unknown>;
  const block = (typeof document.log === "object" && document.log !== null ? document.log : document) as Record<
    string,
    unknown
  >;
  const body = (typeof block.receipt === "string" ? JSON.parse(block.receipt) : block.receipt) as
    | Record<string, unknown>
    | undefined;
  if (!body || typeof body !== "object")
    throw new Error("the receipt file holds no log.receipt: pass a saved audit report (RECEIPT_TRACE)");
  const logIndex = Number(block.log_index);
  const entryHex = String(block.leaf_entry ?? "");
  const proof = Array.isArray(block.inclusion_proof)
    ? block.inclusion_proof.map((hash) => Buffer.from(String(hash), "base64"))
    : [];

  check(
    `format is ${RECEIPT_FORMAT} or ${LEGACY_RECEIPT_FORMAT}`,
    body.v === RECEIPT_FORMAT || body.v === LEGACY_RECEIPT_FORMAT,
  );
  check("leaf entry = SHA-256 of the canonical receipt body", sha256Hex(canonicalJson(body)) === entryHex);
  const recordedIndex = body.v === RECEIPT_FORMAT ? body.log_index : Number(body.seq) - 1;
  check(`the receipt records log index ${logIndex}`, Number.isSafeInteger(logIndex) && recordedIndex === logIndex);
  check("request_sha256 matches the request", sha256Hex(canonicalJson(body.request ?? null)) === body.request_sha256);

  const verifiers: NoteVerifier[] = inputs.verifierKeys.map(parseVerifierKey);
  const note = parseNote(inputs.checkpoint);
  const checkpoint = parseCheckpointText(note.text);
  const signedBy = verifyNote(note, verifiers);
  check(`checkpoint (tree size ${checkpoint.size}) is signed by a given key`, signedBy !== null && signedBy.length > 0);
  const proofSize = Number(block.tree_size);
  check(`the inclusion proof is for the checkpoint's tree size ${checkpoint.size}`, proofSize === checkpoint.size);
  check(
    "the inclusion proof leads from the leaf to the checkpoint's root",
    /^[0-9a-f]{64}$/.test(entryHex) &&
      verifyInclusion(logIndex, checkpoint.size, leafHash(Buffer.from(entryHex, "hex")), proof, checkpoint.root),
  );

  if (inputs.response !== undefined) {
    const answer = { ...(inputs.response as Record<string, unknown>) };
    for (const field of ANSWER_ENVELOPE_FIELDS) delete answer[field];
    check(
      "the response you kept is the one the receipt hashed",
      sha256Hex(canonicalJson(answer)) === body.response_sha256,
    );
  }
  return checks;
}

/** Verifier keys from the --key argument: a key itself, or a file holding one per line or the public-key JSON. */
export function verifierKeysFrom(text: string): string[] {
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    const published = JSON.parse(trimmed) as { note_verifier_key?: string; keys?: { note_verifier_key?: string }[] };
    const keys = [published.note_verifier_key, ...(published.keys ?? []).map((key) => key.note_verifier_key)];
    return [...new Set(keys.filter((key): key is string => typeof key === "string"))];
  }
  return trimmed
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
}
