import { LEGACY_RECEIPT_FORMAT, RECEIPT_FORMAT } from "./format.ts";
import { verifierKey } from "./log/note.ts";
import type { PublicKeyRecord } from "./signer.ts";

export interface PublishedKey {
  kid: string;
  algorithm: "Ed25519";
  /** base64url of the raw 32-byte public key. */
  public_key: string;
  /** RFC 8037 JWK, importable with WebCrypto or node:crypto. */
  jwk: { kty: "OKP"; crv: "Ed25519"; x: string; kid: string; alg: "EdDSA"; use: "sig" };
  /** C2SP signed-note verifier key `<origin>+<key ID>+<key>`: checks this key's checkpoint signatures. */
  note_verifier_key: string;
  created_at: string;
}

/** Body of GET /v1/receipts/public-key: the current key at top level, every key ever used in `keys`. */
export interface PublishedKeySet extends PublishedKey {
  keys: PublishedKey[];
  log: {
    origin: string;
    checkpoint: string;
    tiles: string;
  };
  receipt_format: {
    version: typeof RECEIPT_FORMAT;
    legacy_version: typeof LEGACY_RECEIPT_FORMAT;
    canonicalization: "RFC 8785 (JCS)";
    leaf_entry: string;
    checkpoint: string;
    key_id: string;
  };
}

export function publishKey(record: PublicKeyRecord, origin: string): PublishedKey {
  return {
    kid: record.kid,
    algorithm: "Ed25519",
    public_key: record.publicKey,
    jwk: { kty: "OKP", crv: "Ed25519", x: record.publicKey, kid: record.kid, alg: "EdDSA", use: "sig" },
    note_verifier_key: verifierKey(origin, Buffer.from(record.publicKey, "base64url")),
    created_at: new Date(record.createdAt).toISOString(),
  };
}

export function publishedKeySet(records: PublicKeyRecord[], currentKid: string, origin: string): PublishedKeySet {
  const keys = records.map((record) => publishKey(record, origin));
  const current = keys.find((key) => key.kid === currentKid);
  if (!current) throw new Error(`Signing key ${currentKid} is missing from signing_keys.`);
  return {
    ...current,
    keys,
    log: { origin, checkpoint: "/log/checkpoint", tiles: "/log/tile/" },
    receipt_format: {
      version: RECEIPT_FORMAT,
      legacy_version: LEGACY_RECEIPT_FORMAT,
      canonicalization: "RFC 8785 (JCS)",
      leaf_entry:
        "SHA-256 of the UTF-8 canonical JSON of the receipt body (32 bytes); leaf hash = SHA-256(0x00 || entry)",
      checkpoint: "C2SP tlog-checkpoint signed as a C2SP signed-note with Ed25519, one per group-commit batch",
      key_id: "kid: first 16 hex characters of SHA-256 over the raw 32-byte public key",
    },
  };
}
