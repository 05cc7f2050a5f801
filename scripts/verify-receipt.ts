#!/usr/bin/env bun
/**
 * Verify one Waybill receipt offline, with nothing but the runtime's built-in crypto.
 *
 *   bun scripts/verify-receipt.ts RECEIPT.json PUBLIC_KEY.json [--response RESPONSE.json]
 *   node --experimental-strip-types scripts/verify-receipt.ts …   (Node ≥ 22.6; no flag needed from 23.6)
 *
 * RECEIPT.json: an audit report (GET /v1/reports/audit?receipt_id=…), or just its `chain` block
 *   ({ hash, signature, kid, body }). PUBLIC_KEY.json: the body of GET /v1/receipts/public-key, or a
 *   single Ed25519 JWK. RESPONSE.json (optional): the answer you received. The receipt signs only the
 *   answer's SHA-256 (response_sha256), so this is how to tie your answer to it.
 * Prints one line per check and "valid" or "invalid"; exits 0 when valid, 1 when not, 2 on bad usage.
 * It does not import Waybill's code on purpose: it is a second, independent implementation.
 */
import { createHash, createPublicKey, verify } from "node:crypto";
import { readFileSync } from "node:fs";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** RFC 8785 for values that came out of JSON.parse: sorted keys (UTF-16 order), ECMAScript number and string forms. */
function canonical(value: Json): string {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) throw new Error("non-finite number");
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key]!)}`).join(",")}}`;
}

/** The only body layout this script knows: v2 holds the request and the answer's digest, not the answer. */
const RECEIPT_FORMAT = "waybill.receipt/2";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

interface Jwk {
  kty: string;
  crv: string;
  x: string;
  kid?: string;
}

function findKey(published: Record<string, unknown>, kid: string): Jwk | undefined {
  const candidates: unknown[] = [published, published.jwk, ...(Array.isArray(published.keys) ? published.keys : [])];
  for (const candidate of candidates) {
    if (!candidate || typeof candidate !== "object") continue;
    const record = candidate as Record<string, unknown>;
    const jwk = (record.jwk ?? record) as Partial<Jwk>;
    const id = (record.kid ?? jwk.kid) as string | undefined;
    if (jwk.kty === "OKP" && jwk.crv === "Ed25519" && typeof jwk.x === "string" && id === kid) return jwk as Jwk;
  }
  return undefined;
}

function main(argv: string[]): number {
  const responseFlag = argv.indexOf("--response");
  const responseFile = responseFlag >= 0 ? argv[responseFlag + 1] : undefined;
  const [receiptFile, keyFile] = argv.filter((_, i) => responseFlag < 0 || (i !== responseFlag && i !== responseFlag + 1));
  if (!receiptFile || !keyFile || (responseFlag >= 0 && !responseFile)) {
    console.error("usage: verify-receipt RECEIPT.json PUBLIC_KEY.json [--response RESPONSE.json]");
    return 2;
  }
  const document = JSON.parse(readFileSync(receiptFile, "utf8")) as Record<string, unknown>;
  const chain = (document.chain ?? document) as { hash?: string; signature?: string; kid?: string; body?: Json };
  const body = (typeof chain.body === "string" ? JSON.parse(chain.body) : chain.body) as Record<string, Json> | undefined;
  if (!body || typeof body !== "object" || !chain.hash || !chain.signature) {
    console.error("The receipt file has no { hash, signature, body } (pass an audit report or its chain block).");
    return 2;
  }

  const results: [string, boolean][] = [];
  const check = (name: string, ok: boolean) => results.push([name, ok]);
  const signedText = canonical(body);
  check(`format is ${RECEIPT_FORMAT}`, body.v === RECEIPT_FORMAT);
  check("hash = SHA-256 of the canonical body", sha256(signedText) === chain.hash);
  check("request_sha256 matches the request", sha256(canonical(body.request ?? null)) === body.request_sha256);
  check("response_sha256 is a SHA-256 digest", typeof body.response_sha256 === "string" && /^[0-9a-f]{64}$/.test(body.response_sha256));

  const kid = String(body.kid);
  check("kid in the chain block matches the signed body", chain.kid === undefined || chain.kid === kid);
  const jwk = findKey(JSON.parse(readFileSync(keyFile, "utf8")) as Record<string, unknown>, kid);
  check(`public key ${kid} is in the key file`, jwk !== undefined);
  if (jwk) {
    check("kid = first 16 hex of SHA-256(raw public key)", createHash("sha256").update(Buffer.from(jwk.x, "base64url")).digest("hex").slice(0, 16) === kid);
    const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: jwk.x }, format: "jwk" });
    const signature = Buffer.from(chain.signature, "base64url");
    check("Ed25519 signature over the canonical body", signature.length === 64 && verify(null, Buffer.from(signedText, "utf8"), key, signature));
  }

  if (responseFile) {
    const received = JSON.parse(readFileSync(responseFile, "utf8")) as Record<string, Json>;
    // receipt_id and auth_obj_id are added to the answer after it was signed.
    const { receipt_id: _receiptId, auth_obj_id: _authObjId, ...answer } = received;
    check("the response you received is the one signed", sha256(canonical(answer)) === body.response_sha256);
  }

  for (const [name, ok] of results) console.log(`${ok ? "ok  " : "FAIL"} ${name}`);
  console.log(`receipt ${String(body.id)} (seq ${String(body.seq)}, prev_hash ${String(body.prev_hash)})`);
  if (!responseFile) console.log(`response_sha256 ${String(body.response_sha256)} (pass --response to check the answer you received against it)`);
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
