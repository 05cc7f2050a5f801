import { canonicalJson, sha256Hex } from "./canonical.ts";
import { RECEIPT_FORMAT, type ReceiptBody } from "./format.ts";

/**
 * A log-era receipt body as the receipts table keeps it (docs/receipts.md, "Storage"): the fields
 * that differ per receipt, and the canonical JSON of the parts many receipts share (key grant,
 * request, factor versions, model version), each stored once in `receipt_parts`.
 * `composeBody` rebuilds the exact RFC 8785 bytes whose SHA-256 is the receipt's leaf entry.
 */
export interface CompactBody {
  logIndex: number;
  id: string;
  issuedAt: number;
  knownAt: number;
  skill: string;
  accountId: string;
  asOf: string;
  /** Canonical JSON of the key grant: {auth_obj_id, key_id, scopes, tier}. */
  principal: string;
  /** Canonical JSON of the validated request, and its SHA-256 in hex (the body's request_sha256). */
  request: string;
  requestSha256: string;
  /** Canonical JSON of the factor_versions array. */
  factors: string;
  /** The model version as a JSON string. */
  model: string;
  responseSha256: string;
}

/** The key grant fields of a body: what one `principal` part holds. */
export interface PrincipalPart {
  auth_obj_id: string;
  key_id: string;
  scopes: string[] | null;
  tier: string;
}

/** The principal part's members, each already as canonical JSON text, ready to splice into a body. */
interface PrincipalJson {
  authObjId: string;
  keyId: string;
  scopes: string;
  tier: string;
}

const principalJsonCache = new Map<string, PrincipalJson>();

function principalJson(text: string): PrincipalJson {
  const cached = principalJsonCache.get(text);
  if (cached) return cached;
  const part = JSON.parse(text) as PrincipalPart;
  const json = {
    authObjId: JSON.stringify(part.auth_obj_id),
    keyId: JSON.stringify(part.key_id),
    scopes: canonicalJson(part.scopes),
    tier: JSON.stringify(part.tier),
  };
  if (principalJsonCache.size >= 10_000) principalJsonCache.clear(); // one entry per key grant and tier
  principalJsonCache.set(text, json);
  return json;
}

export const principalPartText = (part: PrincipalPart): string =>
  canonicalJson({ auth_obj_id: part.auth_obj_id, key_id: part.key_id, scopes: part.scopes, tier: part.tier });

/**
 * ISO 8601 of a time, with the text up to its second remembered: receipts rebuilt in log order share
 * it most of the time, and Date formatting is a good part of rebuilding one otherwise.
 */
let isoSecond = Number.NaN;
let isoPrefix = "";
function iso(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== isoSecond) {
    const text = new Date(second * 1000).toISOString(); // YYYY-MM-DDTHH:mm:ss.000Z
    if (text.length !== 24) return new Date(ms).toISOString(); // years outside 0000–9999
    isoSecond = second;
    isoPrefix = text.slice(0, 20);
  }
  const millis = ms - second * 1000;
  return `${isoPrefix}${millis < 10 ? "00" : millis < 100 ? "0" : ""}${millis}Z`;
}

/** JSON of a string that is usually the same as the last one asked for (account, as_of, skill of a run). */
function quoteMemo() {
  let last: string | undefined;
  let json = "";
  return (value: string) => {
    if (value !== last) {
      last = value;
      json = JSON.stringify(value);
    }
    return json;
  };
}
const quoteAccount = quoteMemo();
const quoteAsOf = quoteMemo();
const quoteSkill = quoteMemo();

/**
 * canonicalJson(body) without walking the body: the members in RFC 8785 order (UTF-16 order of the
 * key names, which is fixed for this format), the shared parts spliced in as the canonical texts they
 * are. A property test holds it equal to canonicalJson of the same body.
 */
export function composeBody(body: CompactBody): string {
  const q = JSON.stringify;
  const principal = principalJson(body.principal);
  return (
    `{"account_id":${quoteAccount(body.accountId)},"as_of":${quoteAsOf(body.asOf)},"auth_obj_id":${principal.authObjId},` +
    `"factor_versions":${body.factors},"id":${q(body.id)},"issued_at":"${iso(body.issuedAt)}",` +
    `"key_id":${principal.keyId},"known_at":"${iso(body.knownAt)}","log_index":${body.logIndex},` +
    `"model_version":${body.model},"request":${body.request},"request_sha256":"${body.requestSha256}",` +
    `"response_sha256":"${body.responseSha256}","scopes":${principal.scopes},"skill":${quoteSkill(body.skill)},` +
    `"tier":${principal.tier},"v":"${RECEIPT_FORMAT}"}`
  );
}

const BODY_KEYS = [
  "account_id",
  "as_of",
  "auth_obj_id",
  "factor_versions",
  "id",
  "issued_at",
  "key_id",
  "known_at",
  "log_index",
  "model_version",
  "request",
  "request_sha256",
  "response_sha256",
  "scopes",
  "skill",
  "tier",
  "v",
] as const satisfies readonly (keyof ReceiptBody)[];

const HEX_SHA256 = /^[0-9a-f]{64}$/;

/** The compact form of a body (throws on a member JSON cannot carry). */
export function compactOf(body: ReceiptBody): CompactBody {
  return {
    logIndex: body.log_index,
    id: body.id,
    issuedAt: Date.parse(body.issued_at),
    knownAt: Date.parse(body.known_at),
    skill: body.skill,
    accountId: body.account_id,
    asOf: body.as_of,
    principal: principalPartText(body),
    request: canonicalJson(body.request),
    requestSha256: body.request_sha256,
    factors: canonicalJson(body.factor_versions),
    model: JSON.stringify(body.model_version),
    responseSha256: body.response_sha256,
  };
}

/**
 * The compact form of a stored canonical body, or null when the body cannot be rebuilt from one
 * byte for byte (another format, unknown members, a time not in the form Waybill writes): such a
 * body is kept whole. Used once per database, to compact receipts written before this form.
 */
export function decomposeBody(text: string): CompactBody | null {
  let body: ReceiptBody;
  try {
    body = JSON.parse(text) as ReceiptBody;
  } catch {
    return null;
  }
  if (typeof body !== "object" || body === null || body.v !== RECEIPT_FORMAT) return null;
  const keys = Object.keys(body);
  if (keys.length !== BODY_KEYS.length || !BODY_KEYS.every((key) => key in body)) return null;
  const strings = [
    body.id,
    body.issued_at,
    body.known_at,
    body.skill,
    body.account_id,
    body.as_of,
    body.auth_obj_id,
    body.key_id,
    body.tier,
    body.model_version,
  ];
  if (!strings.every((value) => typeof value === "string")) return null;
  if (!HEX_SHA256.test(String(body.request_sha256)) || !HEX_SHA256.test(String(body.response_sha256))) return null;
  if (
    !Number.isFinite(Date.parse(body.issued_at)) ||
    !Number.isFinite(Date.parse(body.known_at)) ||
    !Number.isSafeInteger(body.log_index)
  )
    return null;
  let compact: CompactBody;
  try {
    compact = compactOf(body);
  } catch {
    return null;
  }
  // The request part's digest stands for request_sha256, so a body whose two disagree stays whole.
  if (sha256Hex(compact.request) !== compact.requestSha256) return null;
  return composeBody(compact) === text ? compact : null;
}
