import { afterEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ManualClock } from "../../src/clock.ts";
import { openDatabase, openMemoryDatabase, type Db } from "../../src/db/client.ts";
import { createReceiptLedger } from "../../src/receipts/chain.ts";
import { canonicalJson } from "../../src/receipts/canonical.ts";
import { GENESIS_PREV_HASH, RECEIPT_ID_PATTERN, STORED_RECEIPT_COLUMNS, type ReceiptBody, type StoredReceipt } from "../../src/receipts/format.ts";
import { verifyChain } from "../../src/receipts/verify.ts";
import type { WriterMessage } from "./concurrent-writer.ts";
import { T0, sampleEntry } from "./fixtures.ts";
import { seedPrincipal } from "../support/accounts.ts";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const rows = (db: Db) => db.$client.query<StoredReceipt, []>(`SELECT ${STORED_RECEIPT_COLUMNS} FROM receipts ORDER BY seq`).all();
/** The pipeline's shape: the append runs inside an IMMEDIATE write transaction on the same connection. */
const inTransaction = <T>(db: Db, work: () => T): T => db.$client.transaction(work).immediate();

const tempDirs: string[] = [];
afterEach(() => {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDbFile(): string {
  const dir = mkdtempSync(join(tmpdir(), "waybill-receipts-"));
  tempDirs.push(dir);
  return join(dir, "waybill.db");
}

describe("appending receipts", () => {
  test("the first receipt links to the genesis hash and each later one to its predecessor", () => {
    const db = openMemoryDatabase();
    const ledger = createReceiptLedger(db, new ManualClock(T0));
    const principal = seedPrincipal(db);
    const appended = [1, 2, 3].map(() => inTransaction(db, () => ledger.append(db, sampleEntry(principal))));

    expect(appended.map((r) => r.seq)).toEqual([1, 2, 3]);
    const stored = rows(db);
    expect(stored.map((r) => r.prevHash)).toEqual([GENESIS_PREV_HASH, stored[0]!.hash, stored[1]!.hash]);
    for (const [i, receipt] of appended.entries()) {
      expect(receipt.id).toMatch(RECEIPT_ID_PATTERN);
      expect(receipt.hash).toBe(stored[i]!.hash);
    }
    // Same millisecond, still strictly time-ordered ids.
    expect([...appended.map((r) => r.id)].sort()).toEqual(appended.map((r) => r.id));
  });

  test("the stored body is the canonical JSON of every recorded field, the answer only by its digest, and the hash is its SHA-256", () => {
    const db = openMemoryDatabase();
    const ledger = createReceiptLedger(db, new ManualClock(T0));
    const principal = seedPrincipal(db, { tier: "starter", scopes: ["rate-lookup"] });
    const entry = sampleEntry(principal);
    const { id } = inTransaction(db, () => ledger.append(db, entry));
    const [row] = rows(db);
    const body = JSON.parse(row!.body) as ReceiptBody;

    expect(canonicalJson(body)).toBe(row!.body);
    expect(row!.hash).toBe(sha256(row!.body));
    expect(body).toEqual({
      v: "waybill.receipt/2",
      id,
      seq: 1,
      prev_hash: GENESIS_PREV_HASH,
      issued_at: "2026-03-02T15:04:05.678Z",
      kid: ledger.publishedKeys().kid,
      skill: "rate-lookup",
      account_id: principal.accountId,
      key_id: principal.keyId,
      auth_obj_id: principal.authObjId,
      tier: "starter",
      scopes: ["rate-lookup"],
      request: entry.request,
      request_sha256: sha256(canonicalJson(entry.request)),
      response_sha256: sha256(canonicalJson(entry.response)),
      factor_versions: entry.factorVersions,
      model_version: "cost-basis/1.0.0",
      as_of: "2026-03-02",
      known_at: "2026-03-02T15:04:05.678Z",
    });
    expect(row!.body).not.toContain("2051.52");
    expect(row).toMatchObject({ accountId: principal.accountId, authObjId: principal.authObjId, tier: "starter", issuedAt: T0 });
  });

  test("the signature verifies with the published JWK through WebCrypto, independently of the signer", async () => {
    const db = openMemoryDatabase();
    const ledger = createReceiptLedger(db, new ManualClock(T0));
    inTransaction(db, () => ledger.append(db, sampleEntry(seedPrincipal(db))));
    const [row] = rows(db);
    const published = ledger.publishedKeys();
    const key = await crypto.subtle.importKey("jwk", published.jwk, { name: "Ed25519" }, false, ["verify"]);
    const signature = Buffer.from(row!.signature, "base64url");
    const body = new TextEncoder().encode(row!.body);

    expect(await crypto.subtle.verify("Ed25519", key, signature, body)).toBe(true);
    body[10] = body[10]! ^ 1;
    expect(await crypto.subtle.verify("Ed25519", key, signature, body)).toBe(false);
  });

  test("the signing key is created once, kept in signing_keys, and named by its key id", () => {
    const db = openMemoryDatabase();
    const first = createReceiptLedger(db, new ManualClock(T0)).publishedKeys();
    const second = createReceiptLedger(db, new ManualClock(T0 + 60_000)).publishedKeys();

    expect(second.kid).toBe(first.kid);
    expect(db.$client.query("SELECT count(*) AS n FROM signing_keys").get()).toEqual({ n: 1 });
    const raw = Buffer.from(first.public_key, "base64url");
    expect(raw.length).toBe(32);
    expect(first.kid).toBe(createHash("sha256").update(raw).digest("hex").slice(0, 16));
    expect(first.jwk).toEqual({ kty: "OKP", crv: "Ed25519", x: first.public_key, kid: first.kid, alg: "EdDSA", use: "sig" });
    expect(first.keys.map((k) => k.kid)).toEqual([first.kid]);
  });
});

describe("chain integrity under transactions", () => {
  test("a rolled-back append leaves no trace and the next append takes its sequence number", () => {
    const db = openMemoryDatabase();
    const ledger = createReceiptLedger(db, new ManualClock(T0));
    const principal = seedPrincipal(db);
    inTransaction(db, () => ledger.append(db, sampleEntry(principal)));
    expect(() =>
      inTransaction(db, () => {
        ledger.append(db, sampleEntry(principal));
        throw new Error("usage row failed after the receipt was written");
      }),
    ).toThrow("usage row failed");
    const next = inTransaction(db, () => ledger.append(db, sampleEntry(principal)));

    expect(next.seq).toBe(2);
    expect(verifyChain(db)).toEqual({ ok: true, checked: 2 });
  });

  test("many appends in one transaction chain to each other", () => {
    const db = openMemoryDatabase();
    const ledger = createReceiptLedger(db, new ManualClock(T0));
    const principal = seedPrincipal(db);
    const seqs = inTransaction(db, () => Array.from({ length: 100 }, () => ledger.append(db, sampleEntry(principal)).seq));

    expect(seqs).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(verifyChain(db)).toEqual({ ok: true, checked: 100 });
  });

  test("group commit: a request rolled back to its savepoint inside a shared transaction leaves no gap", () => {
    const db = openMemoryDatabase();
    const ledger = createReceiptLedger(db, new ManualClock(T0));
    const principal = seedPrincipal(db);
    const seqs = inTransaction(db, () => {
      const answered: number[] = [];
      for (let request = 0; request < 5; request++) {
        // bun:sqlite runs a nested transaction as a SAVEPOINT, as the group committer does per request.
        try {
          answered.push(
            db.$client.transaction(() => {
              const { seq } = ledger.append(db, sampleEntry(principal));
              if (request === 2) throw new Error("this request failed after its receipt");
              return seq;
            })(),
          );
        } catch {}
      }
      return answered;
    });

    expect(seqs).toEqual([1, 2, 3, 4]);
    expect(verifyChain(db)).toEqual({ ok: true, checked: 4 });
  });

  test("two connections to one file interleaving transactions, one rolled back, never fork or skip", () => {
    const file = tempDbFile();
    const a = openDatabase(file);
    const b = openDatabase(file);
    const ledgerA = createReceiptLedger(a, new ManualClock(T0));
    const ledgerB = createReceiptLedger(b, new ManualClock(T0));
    expect(ledgerB.publishedKeys().kid).toBe(ledgerA.publishedKeys().kid);
    const principal = seedPrincipal(a);

    const seqs: number[] = [];
    for (let round = 0; round < 20; round++) {
      seqs.push(inTransaction(a, () => ledgerA.append(a, sampleEntry(principal))).seq);
      if (round === 7) {
        expect(() =>
          inTransaction(b, () => {
            ledgerB.append(b, sampleEntry(principal));
            throw new Error("rolled back");
          }),
        ).toThrow("rolled back");
      }
      seqs.push(inTransaction(b, () => ledgerB.append(b, sampleEntry(principal))).seq);
    }

    expect(seqs).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(verifyChain(a)).toEqual({ ok: true, checked: 40 });
    a.$client.close();
    b.$client.close();
  });

  test("parallel writers in separate threads leave one gapless, verified chain", async () => {
    const file = tempDbFile();
    const db = openDatabase(file);
    const principal = seedPrincipal(db);
    const writers = 4;
    const appendsEach = 100;
    const workers = Array.from({ length: writers }, () => new Worker(new URL("./concurrent-writer.ts", import.meta.url)));
    const nextMessage = <T>(worker: Worker) =>
      new Promise<T>((resolve, reject) => {
        worker.onmessage = (event: MessageEvent<T>) => resolve(event.data);
        worker.onerror = (event) => reject(new Error(event.message));
      });
    const ready = workers.map((worker) => nextMessage<string>(worker));
    for (const worker of workers) worker.postMessage({ kind: "setup", file, principal, appends: appendsEach } satisfies WriterMessage);
    await Promise.all(ready);
    const finished = workers.map((worker) => nextMessage<number[]>(worker));
    for (const worker of workers) worker.postMessage({ kind: "go" } satisfies WriterMessage);
    const seqsPerWriter = await Promise.all(finished);
    for (const worker of workers) worker.terminate();

    // The writers really overlapped: at least one of them got non-consecutive sequence numbers.
    expect(seqsPerWriter.some((seqs) => seqs.some((seq, i) => i > 0 && seq !== seqs[i - 1]! + 1))).toBe(true);
    const all = seqsPerWriter.flat().sort((x, y) => x - y);
    expect(all).toEqual(Array.from({ length: writers * appendsEach }, (_, i) => i + 1));
    expect(verifyChain(db)).toEqual({ ok: true, checked: writers * appendsEach });
    db.$client.close();
  }, 30_000);
});
