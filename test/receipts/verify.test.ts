import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { receiptsVerifyCommand } from "../../src/cli/receipts.ts";
import { openMemoryDatabase, type Db } from "../../src/db/client.ts";
import { canonicalJson } from "../../src/receipts/canonical.ts";
import { storedReceiptAt } from "../../src/receipts/store.ts";
import { verifyLog } from "../../src/receipts/verify.ts";
import { openLedger, SAMPLE_RESPONSE, T0, sampleEntry, seedPrincipal } from "./fixtures.ts";
import { defined } from "../support/defined.ts";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** A log of `count` receipts, each answered in a batch of its own (one checkpoint each) unless `batch` says otherwise. */
async function logOf(count: number, batch = 1): Promise<Db> {
  const db = openMemoryDatabase();
  const { appendBatch } = await openLedger(db);
  const principal = seedPrincipal(db);
  for (let i = 0; i < count; i += batch) {
    await appendBatch(
      Array.from({ length: Math.min(batch, count - i) }, (_, j) =>
        sampleEntry(principal, { issuedAt: T0 + (i + j) * 1000 }),
      ),
    );
  }
  return db;
}

const latestNote = (db: Db) =>
  defined(
    db.$client.query<{ note: string }, []>("SELECT note FROM log_checkpoints ORDER BY tree_size DESC LIMIT 1").get(),
    "the row of SELECT note FROM log_checkpoints ORDER BY tree_size DESC LIMIT 1",
  ).note;

describe("verifyLog", () => {
  test("an empty log and an intact log verify; tiles are checked once full", async () => {
    expect(await verifyLog(openMemoryDatabase())).toEqual({ ok: true, checked: 0, checkpoints: 0 });
    expect(await verifyLog(await logOf(7))).toEqual({ ok: true, checked: 7, checkpoints: 7 });
    expect(await verifyLog(await logOf(600, 50))).toEqual({ ok: true, checked: 600, checkpoints: 12 });
  });

  test("a changed digit in a receipt's response digest or its leaf entry is named at its seq", async () => {
    for (const column of ["response_sha256", "hash"] as const) {
      const db = await logOf(7);
      const digit = `substr(hex(${column}), 30, 1)`;
      db.$client.run(
        `UPDATE receipts SET ${column} = unhex(replace(hex(${column}), ${digit}, CASE ${digit} WHEN 'A' THEN 'B' ELSE 'A' END)) WHERE seq = 4`,
      );
      expect(await verifyLog(db)).toMatchObject({ ok: false, checked: 3, firstBrokenSeq: 4 });
    }
  });

  test("a shared part edited, or missing, is named at the first receipt that uses it", async () => {
    const db = await logOf(5);
    db.$client.run(`UPDATE receipt_parts SET text = replace(text, 'Dallas', 'Austin') WHERE text LIKE '%Dallas%'`);
    expect(await verifyLog(db)).toMatchObject({
      ok: false,
      checked: 0,
      firstBrokenSeq: 1,
      problem: expect.stringContaining("rebuild"),
    });
    const missing = await logOf(5);
    missing.$client.run("UPDATE receipts SET factors_part = 999 WHERE seq = 3");
    expect(await verifyLog(missing)).toMatchObject({
      ok: false,
      checked: 2,
      firstBrokenSeq: 3,
      problem: expect.stringContaining("is missing"),
    });
  });

  test("a receipt rewritten with another answer's digest and a fresh leaf entry is caught by the signed checkpoint", async () => {
    const db = await logOf(5);
    const { body } = defined(await storedReceiptAt(db, 2), "storedReceiptAt(db, 2)");
    const forgedDigest = sha256(canonicalJson({ ...SAMPLE_RESPONSE, rate_per_mile: 1.999 }));
    const forged = body.replace(sha256(canonicalJson(SAMPLE_RESPONSE)), forgedDigest);
    expect(forged).not.toBe(body);
    db.$client
      .query("UPDATE receipts SET response_sha256 = unhex(?), hash = unhex(?) WHERE seq = 2")
      .run(forgedDigest, sha256(forged));
    const result = await verifyLog(db);
    expect(result).toMatchObject({ ok: false, failedCheckpoint: 2 });
    expect(result.problem).toContain("one of seq 2–2 was changed");
  });

  test("a column edited to move a receipt to another account is caught", async () => {
    const db = await logOf(3);
    const other = seedPrincipal(db);
    db.$client.query("UPDATE receipts SET account_id = ? WHERE seq = 3").run(other.accountId);
    expect(await verifyLog(db)).toMatchObject({
      ok: false,
      checked: 2,
      firstBrokenSeq: 3,
      problem: expect.stringContaining("rebuild"),
    });
  });

  test("a deleted receipt in the middle is named; swapped receipts break at the first", async () => {
    const deleted = await logOf(6);
    deleted.$client.run("DELETE FROM receipts WHERE seq = 3");
    expect(await verifyLog(deleted)).toMatchObject({ ok: false, checked: 2, firstBrokenSeq: 3 });
    const swapped = await logOf(5);
    swapped.$client.run("UPDATE receipts SET seq = -2 WHERE seq = 2");
    swapped.$client.run("UPDATE receipts SET seq = 2 WHERE seq = 3");
    swapped.$client.run("UPDATE receipts SET seq = 3 WHERE seq = -2");
    expect(await verifyLog(swapped)).toMatchObject({ ok: false, checked: 1, firstBrokenSeq: 2 });
  });

  test("deleting the newest receipts is detected by the checkpoints that covered them", async () => {
    const db = await logOf(6);
    db.$client.run("DELETE FROM receipts WHERE seq > 4");
    const result = await verifyLog(db);
    expect(result).toMatchObject({ ok: false, checked: 4, failedCheckpoint: 5 });
    expect(result.problem).toContain("receipts were deleted from its end");
  });

  test("a tampered checkpoint note or stored root is caught", async () => {
    const db = await logOf(3);
    db.$client.run(
      "UPDATE log_checkpoints SET note = replace(note, char(10) || '2' || char(10), char(10) || '2' || char(10) || 'x' || char(10)) WHERE tree_size = 2",
    );
    expect(await verifyLog(db)).toMatchObject({ ok: false, failedCheckpoint: 2 });
    const other = await logOf(3);
    const sig = defined(
      other.$client.query<{ note: string }, []>("SELECT note FROM log_checkpoints WHERE tree_size = 3").get(),
      "the row of SELECT note FROM log_checkpoints WHERE tree_size = 3",
    ).note;
    const lastLine = defined(sig.trimEnd().split("\n").pop(), 'sig.trimEnd().split("\\n").pop()');
    const broken = sig.replace(
      lastLine,
      lastLine.slice(0, -6) + (lastLine.slice(-6, -5) === "A" ? "B" : "A") + lastLine.slice(-5),
    );
    other.$client.query("UPDATE log_checkpoints SET note = ? WHERE tree_size = 3").run(broken);
    expect(await verifyLog(other)).toMatchObject({
      ok: false,
      failedCheckpoint: 3,
      problem: "checkpoint at tree size 3: a signature by a known key does not verify",
    });
  });
});

describe("verifyLog names the first failure in log order, signatures included", () => {
  test("a bad signature at tree size 2 is named before a changed receipt at seq 4, and after one at seq 1", async () => {
    const breakSignature = (db: Db, size: number) => {
      const note = defined(
        db.$client.query<{ note: string }, [number]>("SELECT note FROM log_checkpoints WHERE tree_size = ?").get(size),
        "the row of SELECT note FROM log_checkpoints WHERE tree_size = ?",
      ).note;
      const lastLine = defined(note.trimEnd().split("\n").pop(), 'note.trimEnd().split("\\n").pop()');
      const broken = note.replace(
        lastLine,
        lastLine.slice(0, -6) + (lastLine.slice(-6, -5) === "A" ? "B" : "A") + lastLine.slice(-5),
      );
      db.$client.query("UPDATE log_checkpoints SET note = ? WHERE tree_size = ?").run(broken, size);
    };
    const later = await logOf(6);
    breakSignature(later, 2);
    later.$client.run("UPDATE receipts SET known_at = known_at + 1 WHERE seq = 4");
    expect(await verifyLog(later)).toMatchObject({
      ok: false,
      checked: 2,
      checkpoints: 1,
      failedCheckpoint: 2,
      problem: expect.stringContaining("does not verify"),
    });
    const earlier = await logOf(6);
    breakSignature(earlier, 2);
    earlier.$client.run("UPDATE receipts SET known_at = known_at + 1 WHERE seq = 1");
    expect(await verifyLog(earlier)).toMatchObject({ ok: false, checked: 0, firstBrokenSeq: 1 });
  });
});

describe("waybill receipts verify", () => {
  test("exits 0 on an intact log, 1 naming the first failure in text and JSON", async () => {
    const db = await logOf(4);
    const intact = await receiptsVerifyCommand(db, { json: false });
    expect(intact).toEqual({ exitCode: 0, output: expect.stringContaining("4 receipts and 4 signed checkpoints") });
    db.$client.run("UPDATE receipts SET known_at = known_at + 1 WHERE seq = 3");
    const text = await receiptsVerifyCommand(db, { json: false });
    expect(text.exitCode).toBe(1);
    expect(text.output).toContain("broken at receipt seq 3");
    expect(JSON.parse((await receiptsVerifyCommand(db, { json: true })).output)).toMatchObject({
      ok: false,
      checked: 2,
      firstBrokenSeq: 3,
    });
  });

  test("a checkpoint a client kept shows the newest receipts deleted together with the checkpoints that covered them", async () => {
    const db = await logOf(6);
    const dir = mkdtempSync(join(process.cwd(), ".tmp", "kept-"));
    const file = join(dir, "checkpoint.txt");
    writeFileSync(file, latestNote(db));
    expect((await receiptsVerifyCommand(db, { json: false, checkpoint: file })).exitCode).toBe(0);
    db.$client.run("DELETE FROM receipts WHERE seq > 4");
    db.$client.run("DELETE FROM log_checkpoints WHERE tree_size > 4");
    expect((await receiptsVerifyCommand(db, { json: false })).exitCode).toBe(0);
    const caught = await receiptsVerifyCommand(db, { json: false, checkpoint: file });
    expect(caught.exitCode).toBe(1);
    expect(caught.output).toContain("the kept checkpoint at tree size 6 covers receipts the log no longer has");
  });
});
