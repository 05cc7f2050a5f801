import { createHash, createPublicKey, sign, verify, type KeyObject } from "node:crypto";

/**
 * C2SP signed-note with Ed25519 (signature type 0x01) and C2SP tlog-checkpoint note text.
 * docs/receipts.md describes both formats; this file is the only place that writes or reads them.
 */
const ED25519_TYPE = 0x01;
const SIGNATURE_PREFIX = "\u2014 ";

/** The 4-byte key ID: SHA-256(name || 0x0A || 0x01 || raw public key)[:4]. */
export function noteKeyId(name: string, rawPublicKey: Uint8Array): Buffer {
  return createHash("sha256")
    .update(Buffer.from(`${name}\n`, "utf8"))
    .update(new Uint8Array([ED25519_TYPE]))
    .update(rawPublicKey)
    .digest()
    .subarray(0, 4);
}

/** The note verifier key `<name>+<8 hex key ID>+<base64(0x01 || public key)>`, as tlog tools take it. */
export function verifierKey(name: string, rawPublicKey: Uint8Array): string {
  const encoded = Buffer.concat([Buffer.from([ED25519_TYPE]), Buffer.from(rawPublicKey)]).toString("base64");
  return `${name}+${noteKeyId(name, rawPublicKey).toString("hex")}+${encoded}`;
}

export interface NoteVerifier {
  name: string;
  keyId: Buffer;
  publicKey: KeyObject;
  rawPublicKey: Buffer;
}

/** Parse `<name>+<hash>+<base64 key>`; throws with a sentence saying what is wrong. */
export function parseVerifierKey(text: string): NoteVerifier {
  // The base64 key may itself contain '+'; the name and the hex ID cannot.
  const match = /^([^+]*)\+([^+]*)\+(.*)$/.exec(text.trim());
  if (!match) throw new Error("a note verifier key has three parts: <name>+<hex key ID>+<base64 key>");
  const [, name, hex, b64] = match as unknown as [string, string, string, string];
  const decoded = Buffer.from(b64, "base64");
  if (!name || /\s/.test(name)) throw new Error("the verifier key's name is empty or contains spaces");
  if (decoded.length !== 33 || decoded[0] !== ED25519_TYPE)
    throw new Error("the verifier key is not an Ed25519 (type 0x01) key");
  const rawPublicKey = decoded.subarray(1);
  const keyId = noteKeyId(name, rawPublicKey);
  if (keyId.toString("hex") !== hex.toLowerCase())
    throw new Error("the verifier key's ID does not match its name and key");
  const publicKey = createPublicKey({
    key: { kty: "OKP", crv: "Ed25519", x: rawPublicKey.toString("base64url") },
    format: "jwk",
  });
  return { name, keyId, publicKey, rawPublicKey: Buffer.from(rawPublicKey) };
}

/**
 * The key ID of the key that signed last: the log signs one checkpoint per group-commit batch with
 * the same key, and the SHA-256 behind the ID cost ≈ 6 µs of every batch (docs/performance.md).
 * Its bytes are compared as they are, not encoded first.
 */
let lastKeyId: { name: string; raw: Uint8Array; id: Buffer } | null = null;

function cachedNoteKeyId(name: string, rawPublicKey: Uint8Array): Buffer {
  const last = lastKeyId;
  if (last?.name === name && Buffer.compare(last.raw, rawPublicKey) === 0) return last.id;
  const id = noteKeyId(name, rawPublicKey);
  lastKeyId = { name, raw: Uint8Array.from(rawPublicKey), id };
  return id;
}

/** `text` (ending in a newline) signed by one Ed25519 key under `name`. */
export function signNote(text: string, name: string, rawPublicKey: Uint8Array, privateKey: KeyObject): string {
  if (!text.endsWith("\n")) throw new Error("note text must end with a newline");
  const signature = sign(null, Buffer.from(text, "utf8"), privateKey);
  const line = Buffer.concat([cachedNoteKeyId(name, rawPublicKey), signature]).toString("base64");
  return `${text}\n${SIGNATURE_PREFIX}${name} ${line}\n`;
}

export interface NoteSignature {
  name: string;
  keyId: Buffer;
  signature: Buffer;
}

export interface ParsedNote {
  text: string;
  signatures: NoteSignature[];
}

/** Split a signed note into its text and signature lines, or throw saying why it is not one. */
export function parseNote(note: string): ParsedNote {
  const split = note.lastIndexOf("\n\n");
  if (split < 0) throw new Error("a signed note has its text, a blank line, then signature lines");
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2).split("\n");
  if (lines.pop() !== "") throw new Error("a signed note ends with a newline");
  const signatures = lines.map((line) => {
    if (!line.startsWith(SIGNATURE_PREFIX)) throw new Error("a signature line starts with an em dash and a space");
    const [name, b64, ...rest] = line.slice(SIGNATURE_PREFIX.length).split(" ");
    const bytes = Buffer.from(b64 ?? "", "base64");
    if (!name || rest.length > 0 || bytes.length < 5)
      throw new Error("a signature line is '— <name> <base64 signature>'");
    return { name, keyId: bytes.subarray(0, 4), signature: bytes.subarray(4) };
  });
  if (signatures.length === 0) throw new Error("the note carries no signature");
  return { text, signatures };
}

/**
 * The verifiers whose signatures on the note verify. Signatures from unknown keys are ignored; one
 * from a known key that fails makes the whole note invalid (returns null), as the spec advises.
 */
export function verifyNote(note: ParsedNote, verifiers: readonly NoteVerifier[]): NoteVerifier[] | null {
  const verified: NoteVerifier[] = [];
  const message = Buffer.from(note.text, "utf8");
  for (const signature of note.signatures) {
    const known = verifiers.find((v) => v.name === signature.name && v.keyId.equals(signature.keyId));
    if (!known) continue;
    if (signature.signature.length !== 64 || !verify(null, message, known.publicKey, signature.signature)) return null;
    verified.push(known);
  }
  return verified;
}

const webCryptoKeys = new WeakMap<NoteVerifier, Promise<CryptoKey>>();

function webCryptoKey(verifier: NoteVerifier): Promise<CryptoKey> {
  let key = webCryptoKeys.get(verifier);
  if (!key) {
    key = crypto.subtle.importKey("raw", new Uint8Array(verifier.rawPublicKey), { name: "Ed25519" }, false, ["verify"]);
    webCryptoKeys.set(verifier, key);
  }
  return key;
}

/**
 * verifyNote with the Ed25519 checks on WebCrypto, which runs them off the JavaScript thread: a
 * caller checking many notes (`receipts verify`) keeps hashing receipts while they run.
 */
export async function verifyNoteInParallel(
  note: ParsedNote,
  verifiers: readonly NoteVerifier[],
): Promise<NoteVerifier[] | null> {
  const message = new TextEncoder().encode(note.text);
  const checks = note.signatures.flatMap((signature) => {
    const known = verifiers.find((v) => v.name === signature.name && v.keyId.equals(signature.keyId));
    if (!known) return [];
    if (signature.signature.length !== 64) return [Promise.resolve({ known, valid: false })];
    return [
      webCryptoKey(known).then(async (key) => ({
        known,
        valid: await crypto.subtle.verify("Ed25519", key, new Uint8Array(signature.signature), message),
      })),
    ];
  });
  const results = await Promise.all(checks);
  return results.every((result) => result.valid) ? results.map((result) => result.known) : null;
}

export interface Checkpoint {
  origin: string;
  size: number;
  root: Buffer;
}

/** The tlog-checkpoint note text: origin, tree size, base64 root hash, each ending in a newline. */
export function checkpointText({ origin, size, root }: Checkpoint): string {
  return `${origin}\n${size}\n${Buffer.from(root).toString("base64")}\n`;
}

export function parseCheckpointText(text: string): Checkpoint {
  const lines = text.split("\n");
  const [origin, sizeLine, rootLine] = lines;
  if (lines.length < 4 || !origin || !sizeLine || !rootLine)
    throw new Error("a checkpoint has an origin, a tree size and a root hash line");
  if (!/^(0|[1-9][0-9]*)$/.test(sizeLine)) throw new Error("the checkpoint's tree size is not a decimal number");
  const root = Buffer.from(rootLine, "base64");
  if (root.length !== 32 || root.toString("base64") !== rootLine)
    throw new Error("the checkpoint's root hash is not 32 bytes of base64");
  return { origin, size: Number(sizeLine), root };
}

/** `https://rates.example.com/` → `rates.example.com`: the origin line and key name tlog-tiles suggests. */
export function originFromUrl(url: string): string {
  return url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").replace(/\/+$/, "");
}
