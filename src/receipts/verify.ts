import type { KeyObject } from "node:crypto";
import type { Store } from "../db/client.ts";
import { sha256Hex } from "./canonical.ts";
import {
  GENESIS_PREV_HASH,
  LEGACY_RECEIPT_FORMAT,
  RECEIPT_FORMAT,
  type AnyReceiptBody,
  type StoredReceipt,
} from "./format.ts";
import { ReceiptRebuilder } from "./rebuild.ts";
import { portableReceiptRows } from "./rows/portable.ts";
import type { ReceiptRows } from "./rows/types.ts";
import { CompactRange, hashesEqual, leafHash } from "./log/merkle.ts";
import {
  checkpointText,
  noteKeyId,
  parseCheckpointText,
  parseNote,
  verifyNote,
  verifyNoteInParallel,
  type NoteVerifier,
} from "./log/note.ts";
import { TILE_HEIGHT as TILE_WIDTH_LOG2, TILE_WIDTH } from "./log/tiles.ts";
import { publicKeyObject, signatureIsValid, type PublicKeyRecord } from "./signer.ts";

/** What one stored receipt proves on its own (and, for a legacy receipt, against its predecessor). */
export interface ReceiptCheck {
  /** The stored leaf entry is the SHA-256 of the stored body. */
  hash_valid: boolean;
  /** Legacy (v2) receipts: their own Ed25519 signature verifies; null for log-era receipts (signed by checkpoints). */
  signature_valid: boolean | null;
  /** Legacy receipts: prev_hash equals the previous receipt's hash; null for log-era receipts. */
  link_valid: boolean | null;
  /** The indexed columns (seq/log index, id, account, …) say what the hashed body says. */
  record_matches_body: boolean;
  /** One sentence per failed check, in the order above; empty when the receipt is intact. */
  problems: string[];
}

/**
 * The one per-receipt verifier: `receipts verify` and the audit report both judge a receipt here.
 * `legacyPrevHash` is the stored hash of receipt seq-1 (or the genesis value), used for v2 receipts only.
 */
export function checkReceipt(
  row: StoredReceipt,
  legacyPrevHash: string | undefined,
  keys: ReadonlyMap<string, KeyObject>,
): ReceiptCheck {
  const problems: string[] = [];
  const hashValid = sha256Hex(row.body) === row.hash;
  if (!hashValid) problems.push("the stored leaf entry is not the SHA-256 of the stored body");
  if (hashValid && columnsAgreeWithCanonicalBody(row)) {
    return { hash_valid: true, signature_valid: null, link_valid: null, record_matches_body: true, problems };
  }

  let body: Partial<AnyReceiptBody> | null = null;
  try {
    body = JSON.parse(row.body) as Partial<AnyReceiptBody>;
  } catch {
    problems.push("the body is not JSON");
  }
  const legacy = body?.v === LEGACY_RECEIPT_FORMAT;
  let signatureValid: boolean | null = null;
  let linkValid: boolean | null = null;
  if (legacy) {
    const key = row.kid ? keys.get(row.kid) : undefined;
    signatureValid = key !== undefined && row.signature !== null && signatureIsValid(key, row.body, row.signature);
    if (!signatureValid)
      problems.push(key ? "the legacy signature does not verify" : `the signing key ${row.kid} is unknown`);
    linkValid = legacyPrevHash !== undefined && row.prevHash === legacyPrevHash;
    if (!linkValid) {
      problems.push(
        legacyPrevHash === undefined
          ? `the previous receipt (seq ${row.seq - 1}) is missing`
          : "prev_hash does not equal the previous receipt's hash",
      );
    }
  }
  const mismatch = body ? recordMismatch(row, body) : "the body is not JSON";
  if (mismatch && body) problems.push(mismatch);
  return {
    hash_valid: hashValid,
    signature_valid: signatureValid,
    link_valid: linkValid,
    record_matches_body: !mismatch,
    problems,
  };
}

/**
 * The fast path of the record check for log-era receipts, without parsing the body: in canonical
 * JSON the top-level keys come in a fixed order, so each column's value must sit between its key
 * and the next one (the values are JSON strings and numbers, and request inputs never carry these
 * key names: unknown input fields are refused). Any doubt falls through to the full parse.
 */
function columnsAgreeWithCanonicalBody(row: StoredReceipt): boolean {
  const q = JSON.stringify;
  const body = row.body;
  return (
    body.startsWith(`{"account_id":${q(row.accountId)},"as_of":`) &&
    body.endsWith(`,"tier":${q(row.tier)},"v":"${RECEIPT_FORMAT}"}`) &&
    body.includes(`,"skill":${q(row.skill)},"tier":`) &&
    body.includes(`],"id":${q(row.id)},"issued_at":${q(new Date(row.issuedAt).toISOString())},"key_id":`) &&
    body.includes(`,"log_index":${row.seq - 1},"model_version":`)
  );
}

/** The first column that disagrees with the hashed body, or null. */
function recordMismatch(row: StoredReceipt, body: Partial<AnyReceiptBody>): string | null {
  const pairs: [string, unknown, unknown][] = [
    ["id", body.id, row.id],
    ["issued_at", body.issued_at, new Date(row.issuedAt).toISOString()],
    ["skill", body.skill, row.skill],
    ["account_id", body.account_id, row.accountId],
  ];
  if (body.v === RECEIPT_FORMAT) pairs.unshift(["log_index", body.log_index, row.seq - 1]);
  else if (body.v === LEGACY_RECEIPT_FORMAT)
    pairs.unshift(["seq", body.seq, row.seq], ["prev_hash", body.prev_hash, row.prevHash], ["kid", body.kid, row.kid]);
  else return `the body format is ${JSON.stringify(body.v)}, not ${RECEIPT_FORMAT} or ${LEGACY_RECEIPT_FORMAT}`;
  const differing = pairs.find(([, hashed, stored]) => hashed !== stored);
  return differing ? `the ${differing[0]} column differs from the hashed body` : null;
}

function isIntact(check: ReceiptCheck): boolean {
  return check.problems.length === 0;
}

/** Check one stored receipt (the audit report's verification block), through the ledger's rows on any engine. */
export async function checkStoredReceipt(store: Store, row: StoredReceipt): Promise<ReceiptCheck> {
  const rows = portableReceiptRows(store);
  const previous =
    row.seq === 1 ? GENESIS_PREV_HASH : (await rows.entries(row.seq - 2, row.seq - 1))[0]?.toString("hex");
  const keys = new Map((await rows.publicKeys()).map((record) => [record.kid, publicKeyObject(record.publicKey)]));
  return checkReceipt(row, previous, keys);
}

export interface StoredCheckpoint {
  treeSize: number;
  rootHash: string;
  kid: string;
  note: string;
}

/** Every key that ever signed, as note verifiers under `name` (the checkpoint's origin), by kid. */
function noteVerifiersFor(records: readonly PublicKeyRecord[], name: string): Map<string, NoteVerifier> {
  return new Map(
    records.map((record) => {
      const rawPublicKey = Buffer.from(record.publicKey, "base64url");
      return [
        record.kid,
        { name, keyId: noteKeyId(name, rawPublicKey), publicKey: publicKeyObject(record.publicKey), rawPublicKey },
      ];
    }),
  );
}

/**
 * Why a stored checkpoint is not a valid signed note of its own row, or null when it is; the
 * signature part settles later (verifyNoteInParallel), the rest is known at once.
 * `verifiers(origin)`: every key of the log as a note verifier under that name (kid → verifier).
 */
function checkpointProblem(
  checkpoint: StoredCheckpoint,
  verifiers: (name: string) => Map<string, NoteVerifier>,
): string | Promise<string | null> {
  try {
    const note = parseNote(checkpoint.note);
    const body = parseCheckpointText(note.text);
    if (body.size !== checkpoint.treeSize || body.root.toString("hex") !== checkpoint.rootHash)
      return "its note does not say the stored size and root";
    if (checkpointText(body) !== note.text) return "its note carries extension lines Waybill does not write";
    const known = verifiers(body.origin);
    return verifyNoteInParallel(note, [...known.values()]).then((verified) => {
      if (verified === null) return "a signature by a known key does not verify";
      const signer = known.get(checkpoint.kid);
      return signer && verified.includes(signer) ? null : `it carries no valid signature by its key ${checkpoint.kid}`;
    });
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * Why a stored checkpoint is not a signed note of its own size and root, by its own key among
 * `publicKeys`, under `origin` when given; null when it is. The server checks its latest checkpoint
 * this way before it signs anything on top of it, and the audit report the checkpoint it returns.
 */
export function signedCheckpointProblem(
  checkpoint: StoredCheckpoint,
  publicKeys: readonly PublicKeyRecord[],
  origin?: string,
): string | null {
  try {
    const note = parseNote(checkpoint.note);
    const body = parseCheckpointText(note.text);
    if (origin !== undefined && body.origin !== origin) return `its note names the log ${body.origin}, not ${origin}`;
    if (body.size !== checkpoint.treeSize || body.root.toString("hex") !== checkpoint.rootHash)
      return "its note does not say the stored size and root";
    const signer = noteVerifiersFor(publicKeys, body.origin).get(checkpoint.kid);
    if (!signer) return `its key ${checkpoint.kid} is not one of the log's keys`;
    return verifyNote(note, [signer])?.includes(signer)
      ? null
      : `it carries no valid signature by its key ${checkpoint.kid}`;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * What the audit report finds wrong with the checkpoints it relies on for receipt `seq`, or nothing:
 * the one it returns (the latest) must be a valid signed note of its size and root by one of the
 * log's keys, still stored as the latest checkpoint of that size (not edited or deleted behind the
 * server's back); and the stored checkpoint signed with the receipt's batch (the smallest covering
 * it) must be a valid signed note whose root is the log's root at its size. `rootAt` gives that
 * root from the log's tiles (null when the log is not that large here).
 */
export async function auditCheckpointProblems(
  store: Store,
  seq: number,
  served: { size: number; root: Uint8Array; kid: string; note: string },
  rootAt: (size: number) => Promise<Uint8Array | null>,
): Promise<string[]> {
  const rows = portableReceiptRows(store);
  const keys = await rows.publicKeys();
  const rootHash = Buffer.from(served.root).toString("hex");
  const servedProblem = signedCheckpointProblem(
    { treeSize: served.size, rootHash, kid: served.kid, note: served.note },
    keys,
  );
  if (servedProblem) return [`the checkpoint at tree size ${served.size} is not valid: ${servedProblem}`];
  const stored = await rows.latestCheckpoint();
  if (!stored || stored.treeSize < served.size)
    return [
      `the stored checkpoints end before tree size ${served.size}, which the log signed: checkpoints were deleted`,
    ];
  if (stored.treeSize === served.size && (stored.note !== served.note || stored.rootHash !== rootHash))
    return [`the stored checkpoint at tree size ${served.size} is not the one the log signed`];
  const own = await rows.checkpointCovering(seq);
  if (!own) return [`no stored checkpoint covers receipt seq ${seq}: checkpoints were deleted`];
  const ownProblem = signedCheckpointProblem(own, keys);
  if (ownProblem)
    return [`the checkpoint at tree size ${own.treeSize}, which covers this receipt, is not valid: ${ownProblem}`];
  const root = await rootAt(own.treeSize);
  if (root && Buffer.from(root).toString("hex") !== own.rootHash)
    return [
      `the checkpoint at tree size ${own.treeSize}, which covers this receipt, does not sign the log's root at that size`,
    ];
  return [];
}

/** A checkpoint a client kept: the log must still contain the tree it names. */
export interface KeptCheckpoint {
  size: number;
  root: Uint8Array;
  note: string;
}

export interface LogVerification {
  ok: boolean;
  /** Receipts found intact, in log order, before the first failure (all of them when ok). */
  checked: number;
  /** Checkpoints whose signature and root were confirmed. */
  checkpoints: number;
  /** The first failure, named: a receipt (seq), a checkpoint (tree size) or a tile. */
  firstBrokenSeq?: number;
  failedCheckpoint?: number;
  problem?: string;
}

/**
 * One pass over the log: every receipt's entry, record (and, for legacy receipts, signature and
 * link); every full tile against the leaves; every checkpoint's signature, and its root against the
 * root recomputed from the leaves at its size. Every checkpoint thereby is a prefix of the one leaf
 * sequence, which is exactly the consistency of consecutive checkpoints. A checkpoint larger than
 * the log means receipts were deleted from its end.
 */
export async function verifyLog(db: Store, kept: readonly KeptCheckpoint[] = []): Promise<LogVerification> {
  const rows = portableReceiptRows(db);
  const publicKeys = await rows.publicKeys();
  const keys = new Map(publicKeys.map((record) => [record.kid, publicKeyObject(record.publicKey)]));
  const verifierCache = new Map<string, Map<string, NoteVerifier>>();
  const verifiersFor = (name: string) => {
    const cached = verifierCache.get(name);
    if (cached) return cached;
    const made = noteVerifiersFor(publicKeys, name);
    verifierCache.set(name, made);
    return made;
  };
  const stored: StoredCheckpoint[] = await rows.checkpoints();
  for (const checkpoint of kept) {
    const text = parseNote(checkpoint.note);
    const signed = verifyNote(text, [...verifiersFor(parseCheckpointText(text.text).origin).values()]);
    if (!signed || signed.length === 0) {
      return {
        ok: false,
        checked: 0,
        checkpoints: 0,
        failedCheckpoint: checkpoint.size,
        problem: `the kept checkpoint at tree size ${checkpoint.size} is not signed by any key of this log`,
      };
    }
  }
  const keptAsStored = kept.map((checkpoint) => ({
    treeSize: checkpoint.size,
    rootHash: Buffer.from(checkpoint.root).toString("hex"),
    kid: "",
    note: checkpoint.note,
    kept: true,
  }));
  const checkpoints: (StoredCheckpoint & { kept?: boolean })[] = [...stored, ...keptAsStored].sort(
    (a, b) => a.treeSize - b.treeSize,
  );
  const rebuilder = new ReceiptRebuilder(rows);

  const range = new CompactRange();
  const pendingTiles: Uint8Array[][] = [[]];
  let nextCheckpoint = 0;
  let prevEntry: Uint8Array | null = null;
  let checked = 0;
  let lastGoodSize = 0;
  const fail = (result: Partial<LogVerification>): LogVerification => ({
    ok: false,
    checked,
    checkpoints: nextCheckpoint,
    ...result,
  });
  const checkpointFailure = (
    checkpoint: { treeSize: number; kept?: boolean },
    problem: string,
  ): Partial<LogVerification> => ({
    failedCheckpoint: checkpoint.treeSize,
    problem: `${checkpoint.kept ? "the kept checkpoint" : "checkpoint"} at tree size ${checkpoint.treeSize}: ${problem}`,
  });
  // Checkpoint signatures run off-thread while the walk goes on (one Ed25519 check per group-commit
  // batch was a third of the walk's time); they are settled in log order at the end of every page
  // and before any other failure is reported, so the first failure named is still the first in the log.
  let pending: { checked: number; checkpoints: number; treeSize: number; problem: Promise<string | null> }[] = [];
  const firstSignatureFailure = async (): Promise<LogVerification | null> => {
    const settling = pending;
    pending = [];
    for (const signature of settling) {
      const problem = await signature.problem;
      if (problem)
        return {
          ok: false,
          checked: signature.checked,
          checkpoints: signature.checkpoints,
          ...checkpointFailure(signature, problem),
        };
    }
    return null;
  };
  const failAfterSignatures = async (result: Partial<LogVerification>) =>
    (await firstSignatureFailure()) ?? fail(result);

  for await (const { page, lastSeq } of receiptPages(rows)) {
    await rebuilder.load(page);
    const tiles = await tilesCompletedWithin(rows, checked, lastSeq);
    for (const row of page) {
      if (row.seq !== checked + 1) {
        return failAfterSignatures({
          firstBrokenSeq: checked + 1,
          problem: `receipt seq ${checked + 1} is missing (the next stored receipt is seq ${row.seq})`,
        });
      }
      // A compact row is its body: the entry rebuilt from it must be the stored one. A body stored
      // whole (legacy receipts) gets the full per-receipt check, signature and chain link included.
      if (row.whole) {
        const prevHash = prevEntry === null ? GENESIS_PREV_HASH : Buffer.from(prevEntry).toString("hex");
        const whole = await rows.storedReceipt(row.seq);
        if (!whole)
          return failAfterSignatures({
            firstBrokenSeq: row.seq,
            problem: "the receipt was deleted while the log was being verified",
          });
        const check = checkReceipt(whole, prevHash, keys);
        if (!isIntact(check))
          return failAfterSignatures({ firstBrokenSeq: row.seq, problem: check.problems.join("; ") });
      } else {
        const problem = rebuilder.entryProblem(row);
        if (problem) return failAfterSignatures({ firstBrokenSeq: row.seq, problem });
      }
      const leaf = leafHash(row.hash);
      range.append(leaf);
      const tileProblem = checkCompletedTiles(pendingTiles, leaf, range, (level, index) =>
        tiles.get(`${level}/${index}`),
      );
      if (tileProblem) return failAfterSignatures({ firstBrokenSeq: row.seq, problem: tileProblem });
      prevEntry = row.hash;
      checked += 1;
      for (
        let checkpoint = checkpoints[nextCheckpoint];
        checkpoint?.treeSize === range.size;
        checkpoint = checkpoints[nextCheckpoint]
      ) {
        const problem = checkpoint.kept ? null : checkpointProblem(checkpoint, verifiersFor);
        if (typeof problem === "string") return failAfterSignatures(checkpointFailure(checkpoint, problem));
        if (problem) pending.push({ checked, checkpoints: nextCheckpoint, treeSize: checkpoint.treeSize, problem });
        if (!hashesEqual(Buffer.from(checkpoint.rootHash, "hex"), range.root())) {
          const changed = `its root hash is not the root of the receipts it covers (one of seq ${lastGoodSize + 1}–${range.size} was changed)`;
          return failAfterSignatures(checkpointFailure(checkpoint, changed));
        }
        nextCheckpoint += 1;
        lastGoodSize = range.size;
      }
    }
    const signatureFailure = await firstSignatureFailure();
    if (signatureFailure) return signatureFailure;
  }
  const orphan = checkpoints[nextCheckpoint];
  if (orphan) {
    return fail({
      failedCheckpoint: orphan.treeSize,
      problem: `${orphan.kept ? "the kept checkpoint" : "checkpoint"} at tree size ${orphan.treeSize} covers receipts the log no longer has (it holds ${checked}): receipts were deleted from its end`,
    });
  }
  if (checked > lastGoodSize) {
    // Every receipt commits together with the checkpoint that covers it; only receipts written
    // before the log, on a database no server has opened since the upgrade, lack one.
    return fail({
      firstBrokenSeq: lastGoodSize + 1,
      problem: `receipts from seq ${lastGoodSize + 1} on are covered by no signed checkpoint (after an upgrade, start the server once to add older receipts to the log)`,
    });
  }
  return { ok: true, checked, checkpoints: nextCheckpoint };
}

const PAGE = 4096;

/** The receipt rows in seq order, a non-empty page at a time, with the last seq of each page. */
async function* receiptPages(rows: ReceiptRows) {
  for (let afterSeq = 0; ; ) {
    const page = await rows.receiptPage(afterSeq, PAGE);
    const last = page.at(-1);
    if (!last) return;
    yield { page, lastSeq: last.seq };
    afterSeq = last.seq;
  }
}

/** The stored full tiles a log growing from `from` to `to` leaves completes (read before the page is walked). */
async function tilesCompletedWithin(
  rows: ReceiptRows,
  from: number,
  to: number,
): Promise<Map<string, Uint8Array | undefined>> {
  const tiles = new Map<string, Uint8Array | undefined>();
  for (let level = 0, span = TILE_WIDTH; span <= to; level++, span *= TILE_WIDTH) {
    for (let index = Math.floor(from / span); (index + 1) * span <= to; index++)
      tiles.set(`${level}/${index}`, await rows.tile(level, index));
  }
  return tiles;
}

/** Feed one leaf into the tiles being rebuilt; when a tile completes, compare it with the stored one. */
function checkCompletedTiles(
  pending: Uint8Array[][],
  leaf: Uint8Array,
  range: CompactRange,
  stored: (level: number, index: number) => Uint8Array | undefined,
): string | null {
  const size = range.size;
  pendingTileAt(pending, 0).push(leaf);
  for (let level = 0; ; level++) {
    const hashes = pendingTileAt(pending, level);
    if (hashes.length !== TILE_WIDTH) break;
    const index = Math.floor(size / TILE_WIDTH ** (level + 1)) - 1;
    const expected = Buffer.concat(hashes);
    const actual = stored(level, index);
    if (!actual)
      return `the log tile ${level}/${index} is missing (after an upgrade, start the server once to add older receipts to the log)`;
    if (!expected.equals(Buffer.from(actual)))
      return `the stored log tile ${level}/${index} does not match the receipts it covers`;
    const tileRoot = range.completed((level + 1) * TILE_WIDTH_LOG2);
    if (!tileRoot) throw new Error("the rebuilt range lost a tile it just completed");
    pendingTileAt(pending, level + 1).push(tileRoot);
    pending[level] = [];
  }
  return null;
}

/** The tile being rebuilt at `level`, started empty the first time a tile of the level below completes. */
function pendingTileAt(pending: Uint8Array[][], level: number): Uint8Array[] {
  const existing = pending[level];
  if (existing) return existing;
  const started: Uint8Array[] = [];
  pending[level] = started;
  return started;
}
