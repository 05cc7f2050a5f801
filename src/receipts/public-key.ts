import { GENESIS_PREV_HASH, RECEIPT_FORMAT } from "./format.ts";
import type { PublicKeyRecord } from "./signer.ts";

export interface PublishedKey {
  kid: string;
  algorithm: "Ed25519";
  /** base64url of the raw 32-byte public key. */
  public_key: string;
  /** RFC 8037 JWK, importable with WebCrypto or node:crypto. */
  jwk: { kty: "OKP"; crv: "Ed25519"; x: string; kid: string; alg: "EdDSA"; use: "sig" };
  created_at: string;
}

/** Body of GET /v1/receipts/public-key: the current key at top level, every key ever used in `keys`. */
export interface PublishedKeySet extends PublishedKey {
  keys: PublishedKey[];
  receipt_format: {
    version: typeof RECEIPT_FORMAT;
    canonicalization: "RFC 8785 (JCS)";
    hash: string;
    signature: string;
    key_id: string;
    genesis_prev_hash: string;
  };
}

export function publishKey(record: PublicKeyRecord): PublishedKey {
  return {
    kid: record.kid,
    algorithm: "Ed25519",
    public_key: record.publicKey,
    jwk: { kty: "OKP", crv: "Ed25519", x: record.publicKey, kid: record.kid, alg: "EdDSA", use: "sig" },
    created_at: new Date(record.createdAt).toISOString(),
  };
}

export function publishedKeySet(records: PublicKeyRecord[], currentKid: string): PublishedKeySet {
  const keys = records.map(publishKey);
  const current = keys.find((key) => key.kid === currentKid);
  if (!current) throw new Error(`Signing key ${currentKid} is missing from signing_keys.`);
  return {
    ...current,
    keys,
    receipt_format: {
      version: RECEIPT_FORMAT,
      canonicalization: "RFC 8785 (JCS)",
      hash: "lowercase hex SHA-256 of the UTF-8 canonical JSON of the receipt body",
      signature: "base64url Ed25519 signature over the same UTF-8 canonical JSON bytes",
      key_id: "first 16 hex characters of SHA-256 over the raw 32-byte public key",
      genesis_prev_hash: GENESIS_PREV_HASH,
    },
  };
}
