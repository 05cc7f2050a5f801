import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
// sigstore's C2SP signed-note checkpoint verifier: not written by this project.
import { verifyCheckpoint } from "@sigstore/verify/dist/tlog/checkpoint";
import { openMemoryDatabase, type Db } from "../../../src/db/client.ts";
import { ManualClock } from "../../../src/clock.ts";
import { ReceiptLog } from "../../../src/receipts/log/log.ts";
import {
  consistencyProof,
  inclusionProof,
  leafHash,
  memoryNodes,
  rootHash,
  verifyConsistency,
  verifyInclusion,
} from "../../../src/receipts/log/merkle.ts";
import {
  noteKeyId,
  parseCheckpointText,
  parseNote,
  parseVerifierKey,
  verifierKey,
} from "../../../src/receipts/log/note.ts";
import { ensureSigningKey, publicKeyObject } from "../../../src/receipts/signer.ts";
import { inTransaction } from "../../../src/db/transaction.ts";
import { sqliteReceiptRows } from "../../../src/receipts/rows/sqlite.ts";
import { verifyLog } from "../../../src/receipts/verify.ts";
import { openLedger, sampleEntry, seedPrincipal, T0 } from "../fixtures.ts";
import { defined } from "../../support/defined.ts";

const ORIGIN = "waybill.test/log";

/** Receipts rows written straight into the table (as a pre-log database holds them), leaf entries given. */
function insertRows(db: Db, count: number): Buffer[] {
  const principal = seedPrincipal(db);
  const insert = db.$client.prepare(
    "INSERT INTO receipts (seq, id, issued_at, skill, account_id, body, hash) VALUES (?, ?, 0, 'rate-lookup', ?, ?, ?)",
  );
  const entries: Buffer[] = [];
  db.$client.transaction(() => {
    for (let i = 0; i < count; i++) {
      const body = `{"n":${i}}`;
      const entry = createHash("sha256").update(body).digest();
      entries.push(entry);
      insert.run(i + 1, `rcpt_${String(i).padStart(26, "0")}`, principal.accountId, body, entry);
    }
  })();
  return entries;
}

async function openLog(db: Db): Promise<ReceiptLog> {
  const clock = new ManualClock(T0);
  const key = await ensureSigningKey(sqliteReceiptRows(db), db, clock);
  const keys = { current: () => key, follow: async () => {} };
  return ReceiptLog.open(sqliteReceiptRows(db), {
    origin: ORIGIN,
    keys,
    clock,
    transaction: (work) => inTransaction(db, work),
  });
}

describe("receipt log", () => {
  test("receipts written before the log are added at start: tiles of every level, proofs and one signed checkpoint", {
    timeout: 60_000,
  }, async () => {
    const db = openMemoryDatabase();
    const entries = insertRows(db, 70_000);
    const log = await openLog(db);
    const leaves = entries.map(leafHash);
    const reference = memoryNodes(leaves);
    expect(log.size).toBe(70_000);
    const latest = defined(log.latest(), "log.latest()");
    expect(latest.size).toBe(70_000);
    expect(Buffer.from(latest.root).equals(Buffer.from(rootHash(reference, 70_000)))).toBe(true);
    // The spec's example: 273 full level-0 tiles, a partial one of width 112, one full level-1 tile,
    // a partial level-1 tile of width 17 and a partial level-2 tile of width 1.
    expect(await log.reading(() => log.tile(0, 272, null))).toHaveLength(256);
    expect(await log.reading(() => log.tile(0, 273, null))).toBeNull();
    expect(await log.reading(() => log.tile(0, 273, 112))).toHaveLength(112);
    expect(await log.reading(() => log.tile(1, 0, null))).toHaveLength(256);
    expect(await log.reading(() => log.tile(1, 1, 17))).toHaveLength(17);
    expect(await log.reading(() => log.tile(2, 0, 1))).toHaveLength(1);
    expect(await log.reading(() => log.tile(2, 0, 2))).toBeNull();
    expect(
      Buffer.from(
        defined(defined(await log.reading(() => log.tile(2, 0, 1)), "log.tile(2, 0, 1)")[0], "log.tile(2, 0, 1)[0]"),
      ).equals(Buffer.from(reference.node(16, 0))),
    ).toBe(true);
    for (const index of [0, 255, 256, 65_535, 65_536, 69_999]) {
      expect(
        (await log.reading(() => log.inclusionProof(index, 70_000))).map((h) => Buffer.from(h).toString("hex")),
      ).toEqual(inclusionProof(reference, index, 70_000).map((h) => Buffer.from(h).toString("hex")));
    }
    for (const [from, to] of [
      [1, 70_000],
      [256, 65_537],
      [65_536, 70_000],
      [1000, 1000],
    ] as const) {
      const proof = await log.reading(() => log.consistencyProof(from, to));
      expect(proof.map((h) => Buffer.from(h).toString("hex"))).toEqual(
        consistencyProof(reference, from, to).map((h) => Buffer.from(h).toString("hex")),
      );
      expect(verifyConsistency(from, to, proof, rootHash(reference, from), rootHash(reference, to))).toBe(true);
    }
    // Restarting finds the same head without signing again.
    const reopened = await openLog(db);
    expect(defined(reopened.latest(), "reopened.latest()").note).toBe(latest.note);
    expect(
      defined(
        db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM log_checkpoints").get(),
        "the row of SELECT count(*) AS n FROM log_checkpoints",
      ).n,
    ).toBe(1);
  });

  test("each group-commit batch signs one checkpoint that sigstore's signed-note verifier accepts", async () => {
    const db = openMemoryDatabase();
    const { ledger, appendBatch } = await openLedger(db, { origin: ORIGIN });
    const principal = seedPrincipal(db);
    const first = await appendBatch(Array.from({ length: 5 }, () => sampleEntry(principal)));
    expect(first.map((r) => r.logIndex)).toEqual([0, 1, 2, 3, 4]);
    await appendBatch(Array.from({ length: 300 }, () => sampleEntry(principal)));
    const checkpoints = db.$client
      .query<{ tree_size: number; note: string; kid: string }, []>(
        "SELECT tree_size, note, kid FROM log_checkpoints ORDER BY tree_size",
      )
      .all();
    expect(checkpoints.map((c) => c.tree_size)).toEqual([5, 305]);

    const published = await ledger.publishedKeys();
    const verifier = parseVerifierKey(published.note_verifier_key);
    expect(published.note_verifier_key.startsWith(`${ORIGIN}+`)).toBe(true);
    expect(verifier.keyId.equals(noteKeyId(ORIGIN, Buffer.from(published.public_key, "base64url")))).toBe(true);
    const tlog = {
      logID: Buffer.concat([verifier.keyId, Buffer.alloc(28)]),
      baseURL: `https://${ORIGIN}`,
      publicKey: publicKeyObject(published.public_key),
    };
    for (const checkpoint of checkpoints) {
      const parsed = verifyCheckpoint(
        { inclusionProof: { checkpoint: { envelope: checkpoint.note } } } as never,
        [tlog] as never,
      );
      expect(Number(parsed.logSize)).toBe(checkpoint.tree_size);
      expect(checkpoint.kid).toBe(published.kid);
    }
    // A checkpoint signed by another key under the same name is refused by the same verifier.
    const other = { ...tlog, publicKey: publicKeyObject(Buffer.alloc(32, 7).toString("base64url")) };
    expect(() =>
      verifyCheckpoint(
        { inclusionProof: { checkpoint: { envelope: defined(checkpoints[1], "checkpoints[1]").note } } } as never,
        [other] as never,
      ),
    ).toThrow();

    const note = parseNote(defined(checkpoints[1], "checkpoints[1]").note);
    const { root } = parseCheckpointText(note.text);
    const entry = Buffer.from(
      defined(
        db.$client.query<{ hash: Uint8Array }, []>("SELECT hash FROM receipts WHERE seq = 300").get(),
        "the row of SELECT hash FROM receipts WHERE seq = 300",
      ).hash,
    );
    expect(
      verifyInclusion(
        299,
        305,
        leafHash(entry),
        await ledger.log.reading(() => ledger.log.inclusionProof(299, 305)),
        root,
      ),
    ).toBe(true);
    expect(verifierKey(ORIGIN, verifier.rawPublicKey)).toBe(published.note_verifier_key);
  });

  test("a log that lost its newest receipts, or whose receipts no longer match the signed root, is not opened", async () => {
    const trimmed = openMemoryDatabase();
    insertRows(trimmed, 10);
    await openLog(trimmed);
    trimmed.$client.run("DELETE FROM receipts WHERE seq > 8");
    await expect(openLog(trimmed)).rejects.toThrow(
      "the receipt log holds 8 receipts but a checkpoint of 10 was signed",
    );
    const edited = openMemoryDatabase();
    insertRows(edited, 10);
    await openLog(edited);
    edited.$client.run(`UPDATE receipts SET hash = x'${"ab".repeat(32)}' WHERE seq = 3`);
    await expect(openLog(edited)).rejects.toThrow("the receipts no longer hash to the root of the latest checkpoint");
  });

  test("a failing write gives its log index to the next one (the batch runs again without it); a failed batch leaves the head as it was", async () => {
    const db = openMemoryDatabase();
    const { ledger, committer } = await openLedger(db, { origin: ORIGIN });
    const principal = seedPrincipal(db);
    const results: unknown[] = [];
    committer.commit((tx) => ledger.append(tx, sampleEntry(principal))).then((r) => results.push(r.logIndex));
    committer
      .commit(async (tx) => {
        await ledger.append(tx, sampleEntry(principal));
        throw new Error("the usage row failed");
      })
      .catch((error: Error) => results.push(error.message));
    committer.commit((tx) => ledger.append(tx, sampleEntry(principal))).then((r) => results.push(r.logIndex));
    await committer.flush();
    await Bun.sleep(1);
    expect(results).toEqual([0, "the usage row failed", 1]);
    expect(ledger.log.size).toBe(2);
    expect(defined(ledger.log.latest(), "ledger.log.latest()").size).toBe(2);
    // Now make COMMIT itself fail: the head must not move.
    db.$client.run(
      "CREATE TRIGGER refuse BEFORE INSERT ON log_checkpoints BEGIN SELECT RAISE(ABORT, 'disk full'); END",
    );
    committer.commit((tx) => ledger.append(tx, sampleEntry(principal))).catch(() => {});
    await committer.flush();
    expect(ledger.log.size).toBe(2);
    db.$client.run("DROP TRIGGER refuse");
    committer.commit((tx) => ledger.append(tx, sampleEntry(principal))).catch(() => {});
    await committer.flush();
    expect(ledger.log.size).toBe(3);
    expect(
      defined(
        db.$client.query<{ n: number }, []>("SELECT max(seq) AS n FROM receipts").get(),
        "the row of SELECT max(seq) AS n FROM receipts",
      ).n,
    ).toBe(3);
  });

  test("a failed batch that completed a tile leaves every level of the head as it was: the batch run again signs the same tree", async () => {
    const db = openMemoryDatabase();
    const { ledger, committer } = await openLedger(db, { origin: ORIGIN });
    const principal = seedPrincipal(db);
    const appendMany = (count: number) =>
      Promise.all(
        Array.from({ length: count }, () => committer.commit((tx) => ledger.append(tx, sampleEntry(principal)))),
      );
    const committed = appendMany(250);
    await committer.flush();
    await committed;
    db.$client.run(
      "CREATE TRIGGER refuse BEFORE INSERT ON log_checkpoints BEGIN SELECT RAISE(ABORT, 'disk full'); END",
    );
    const refused = appendMany(10);
    await committer.flush();
    await expect(refused).rejects.toThrow("disk full");
    expect(ledger.log.size).toBe(250);
    expect(await ledger.log.reading(() => ledger.log.tile(0, 0, null))).toBeNull();
    db.$client.run("DROP TRIGGER refuse");
    const again = appendMany(10);
    await committer.flush();
    await again;
    const leaves = db.$client
      .query<{ hash: Uint8Array }, []>("SELECT hash FROM receipts ORDER BY seq")
      .all()
      .map((row) => leafHash(row.hash));
    expect(leaves).toHaveLength(260);
    expect(
      Buffer.from(defined(ledger.log.latest(), "ledger.log.latest()").root).equals(
        Buffer.from(rootHash(memoryNodes(leaves), 260)),
      ),
    ).toBe(true);
    expect(await ledger.log.reading(() => ledger.log.tile(0, 0, null))).toEqual(leaves.slice(0, 256));
    expect(await ledger.log.reading(() => ledger.log.tile(0, 1, 4))).toEqual(leaves.slice(256));
    expect(await verifyLog(db)).toEqual({ ok: true, checked: 260, checkpoints: 2 });
  });
});
