#!/usr/bin/env bun
/**
 * Verify one Waybill receipt offline, with nothing but the runtime's built-in crypto.
 *
 *   bun scripts/verify-receipt.ts REPORT.json CHECKPOINT KEY [--response RESPONSE.json]
 *   node --experimental-strip-types scripts/verify-receipt.ts …   (Node ≥ 22.6; no flag needed from 23.6)
 *
 * REPORT.json: an audit report (GET /v1/reports/audit?receipt_id=…), or just its `log` block.
 * CHECKPOINT: a signed checkpoint (GET /log/checkpoint at the time, or the report's own `log.checkpoint`).
 * KEY: a note verifier key `<name>+<key ID>+<base64 key>`, or a file holding one, or the body of
 *   GET /v1/receipts/public-key. RESPONSE.json (optional): the answer you received.
 * Prints one line per check and "valid" or "invalid"; exits 0 when valid, 1 when not, 2 on bad usage.
 * It does not import Waybill's code on purpose: it is a second, independent implementation of
 * RFC 8785, RFC 6962/9162 inclusion proofs and C2SP signed notes (docs/receipts.md).
 */
import { createHash, createPublicKey, verify } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** RFC 8785 for values that came out of JSON.parse: sorted keys (UTF-16 order), ECMAScript number and string forms. */
function canonical(value: Json): string {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) throw new Error("non-finite number");
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonical(member)}`).join(",")}}`;
}

const FORMATS = ["waybill.receipt/3", "waybill.receipt/2"];
const sha256 = (...parts: (string | Uint8Array)[]) => {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(part);
  return hash.digest();
};
const hashLeaf = (entry: Uint8Array) => sha256(Buffer.from([0]), entry);
const hashChildren = (left: Uint8Array, right: Uint8Array) => sha256(Buffer.from([1]), left, right);

/** RFC 9162 §2.1.3.2: the root an inclusion proof leads to, or null. */
function rootFromProof(index: number, size: number, leaf: Buffer, proof: Buffer[]): Buffer | null {
  if (index >= size) return null;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of proof) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      r = hashChildren(p, r);
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      r = hashChildren(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? r : null;
}

interface VerifierKey {
  name: string;
  id: Buffer;
  raw: Buffer;
}

function readVerifierKeys(arg: string): VerifierKey[] {
  const text = (existsSync(arg) ? readFileSync(arg, "utf8") : arg).trim();
  const strings = text.startsWith("{")
    ? (() => {
        const published = JSON.parse(text) as { note_verifier_key?: string; keys?: { note_verifier_key?: string }[] };
        return [published.note_verifier_key, ...(published.keys ?? []).map((key) => key.note_verifier_key)].filter(
          (key): key is string => !!key,
        );
      })()
    : text.split("\n").filter(Boolean);
  return strings.map((vkey) => {
    const [, name, id, key] = /^([^+]+)\+([0-9a-f]{8})\+(.+)$/.exec(vkey.trim()) ?? [];
    if (name === undefined || id === undefined || key === undefined)
      throw new Error(`not a note verifier key: ${vkey}`);
    const decoded = Buffer.from(key, "base64");
    if (decoded.length !== 33 || decoded[0] !== 1) throw new Error(`not an Ed25519 verifier key: ${vkey}`);
    return { name, id: Buffer.from(id, "hex"), raw: decoded.subarray(1) };
  });
}

function main(argv: string[]): number {
  const responseFlag = argv.indexOf("--response");
  const responseFile = responseFlag >= 0 ? argv[responseFlag + 1] : undefined;
  const [reportFile, checkpointFile, keyArg] = argv.filter(
    (_, i) => responseFlag < 0 || (i !== responseFlag && i !== responseFlag + 1),
  );
  if (!reportFile || !checkpointFile || !keyArg || (responseFlag >= 0 && !responseFile)) {
    console.error("usage: verify-receipt REPORT.json CHECKPOINT KEY [--response RESPONSE.json]");
    return 2;
  }
  const document = JSON.parse(readFileSync(reportFile, "utf8")) as Record<string, unknown>;
  const log = (document.log ?? document) as {
    log_index?: number;
    leaf_entry?: string;
    tree_size?: number;
    inclusion_proof?: string[];
    receipt?: Json;
  };
  const body = (typeof log.receipt === "string" ? JSON.parse(log.receipt) : log.receipt) as
    | Record<string, Json>
    | undefined;
  if (!body || typeof body !== "object" || typeof log.leaf_entry !== "string" || !Array.isArray(log.inclusion_proof)) {
    console.error(
      "The report has no { log_index, leaf_entry, inclusion_proof, receipt } (pass an audit report or its log block).",
    );
    return 2;
  }
  const note = readFileSync(checkpointFile, "utf8");
  const keys = readVerifierKeys(keyArg);

  const results: [string, boolean][] = [];
  const check = (name: string, ok: boolean) => results.push([name, ok]);
  check("format is a Waybill receipt", FORMATS.includes(String(body.v)));
  check("leaf entry = SHA-256 of the canonical body", sha256(canonical(body)).toString("hex") === log.leaf_entry);
  const recorded = body.v === "waybill.receipt/3" ? body.log_index : Number(body.seq) - 1;
  check(`the body records log index ${log.log_index}`, recorded === log.log_index);
  check(
    "request_sha256 matches the request",
    sha256(canonical(body.request ?? null)).toString("hex") === body.request_sha256,
  );

  // C2SP signed note: text, a blank line, then "— <name> base64(key ID || signature)" lines.
  const split = note.lastIndexOf("\n\n");
  const text = note.slice(0, split + 1);
  const [origin, sizeLine, rootLine] = text.split("\n");
  const treeSize = Number(sizeLine);
  let signed = false;
  for (const line of note.slice(split + 2).split("\n")) {
    const [, signer, signature] = /^\u2014 (\S+) (\S+)$/.exec(line) ?? [];
    if (signer === undefined || signature === undefined) continue;
    const bytes = Buffer.from(signature, "base64");
    for (const key of keys) {
      const expectedId = sha256(Buffer.from(`${key.name}\n`), Buffer.from([1]), key.raw).subarray(0, 4);
      if (key.name !== signer || !key.id.equals(expectedId) || !bytes.subarray(0, 4).equals(expectedId)) continue;
      const publicKey = createPublicKey({
        key: { kty: "OKP", crv: "Ed25519", x: key.raw.toString("base64url") },
        format: "jwk",
      });
      signed ||= bytes.length === 68 && verify(null, Buffer.from(text, "utf8"), publicKey, bytes.subarray(4));
    }
  }
  check(
    `checkpoint of ${origin} (tree size ${sizeLine}) carries a valid signature by a given key`,
    split > 0 && signed,
  );
  check("the inclusion proof is for the checkpoint's tree size", log.tree_size === treeSize);
  const root = rootFromProof(
    Number(log.log_index),
    treeSize,
    hashLeaf(Buffer.from(log.leaf_entry, "hex")),
    log.inclusion_proof.map((h) => Buffer.from(h, "base64")),
  );
  check(
    "the inclusion proof leads from the leaf to the checkpoint's root",
    root !== null && root.toString("base64") === rootLine,
  );

  if (responseFile) {
    const received = JSON.parse(readFileSync(responseFile, "utf8")) as Record<string, Json>;
    // receipt_id, log_index and auth_obj_id are added to the answer after it was hashed.
    const { receipt_id: _receiptId, log_index: _logIndex, auth_obj_id: _authObjId, ...answer } = received;
    check(
      "the response you received is the one hashed",
      sha256(canonical(answer)).toString("hex") === body.response_sha256,
    );
  }

  for (const [name, ok] of results) console.log(`${ok ? "ok  " : "FAIL"} ${name}`);
  console.log(`receipt ${String(body.id)} at log index ${String(log.log_index)}`);
  if (!responseFile)
    console.log(
      `response_sha256 ${String(body.response_sha256)} (pass --response to check the answer you received against it)`,
    );
  const valid = results.every(([, ok]) => ok);
  console.log(valid ? "valid" : "invalid");
  return valid ? 0 : 1;
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  // Unreadable files and malformed JSON are usage errors, not verdicts about the receipt.
  console.error(`verify-receipt: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
}
