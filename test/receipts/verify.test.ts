import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { receiptsVerifyCommand } from "../../src/cli/receipts.ts";
import { ManualClock } from "../../src/clock.ts";
import { openMemoryDatabase, type Db } from "../../src/db/client.ts";
import { canonicalJson } from "../../src/receipts/canonical.ts";
import { createReceiptLedger } from "../../src/receipts/chain.ts";
import { verifyChain } from "../../src/receipts/verify.ts";
import { SAMPLE_RESPONSE, T0, sampleEntry } from "./fixtures.ts";
import { seedPrincipal } from "../support/accounts.ts";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** A chain of `count` receipts, each in its own transaction as the pipeline writes them. */
function chainOf(count: number): Db {
  const db = openMemoryDatabase();
  const ledger = createReceiptLedger(db, new ManualClock(T0));
  const principal = seedPrincipal(db);
  for (let i = 0; i < count; i++) {
    db.$client.transaction(() => ledger.append(db, sampleEntry(principal, { issuedAt: T0 + i * 1000 }))).immediate();
  }
  return db;
}

/** Flip one character of a text column of one receipt, at `at` characters from its start. */
function flipOneByte(db: Db, seq: number, column: "body" | "hash" | "signature" | "prev_hash", at = 5) {
  const { value } = db.$client.query<{ value: string }, [number]>(`SELECT ${column} AS value FROM receipts WHERE seq = ?`).get(seq)!;
  const flipped = value.slice(0, at) + (value[at] === "a" ? "b" : "a") + value.slice(at + 1);
  db.$client.query(`UPDATE receipts SET ${column} = ? WHERE seq = ?`).run(flipped, seq);
}

describe("verifyChain", () => {
  test("an empty chain and an intact chain verify", () => {
    expect(verifyChain(openMemoryDatabase())).toEqual({ ok: true, checked: 0 });
    expect(verifyChain(chainOf(7))).toEqual({ ok: true, checked: 7 });
  });

  for (const column of ["body", "hash", "signature", "prev_hash"] as const) {
    test(`one changed byte in the ${column} of receipt 4 breaks the chain at seq 4`, () => {
      const db = chainOf(7);
      // Inside the body, aim at the answer's digest rather than at the JSON punctuation.
      const at = column === "body" ? db.$client.query<{ at: number }, []>(`SELECT instr(body, '"response_sha256":"') + 20 AS at FROM receipts WHERE seq = 4`).get()!.at : 5;
      flipOneByte(db, 4, column, at);
      const result = verifyChain(db);
      expect(result).toMatchObject({ ok: false, checked: 3, firstBrokenSeq: 4 });
      expect(result.problem).toBeString();
    });
  }

  test("a body rewritten with another answer's digest and a freshly computed hash is still caught by its signature", () => {
    const db = chainOf(5);
    const { body } = db.$client.query<{ body: string }, []>("SELECT body FROM receipts WHERE seq = 2").get()!;
    const signedDigest = sha256(canonicalJson(SAMPLE_RESPONSE));
    const forged = body.replace(signedDigest, sha256(canonicalJson({ ...SAMPLE_RESPONSE, rate_per_mile: 1.999 })));
    expect(forged).not.toBe(body);
    const forgedHash = sha256(forged);
    db.$client.query("UPDATE receipts SET body = ?, hash = ? WHERE seq = 2").run(forged, forgedHash);

    const result = verifyChain(db);
    expect(result).toMatchObject({ ok: false, firstBrokenSeq: 2 });
    expect(result.problem).toContain("signature does not verify");
  });

  test("a column edited to move a receipt to another account is caught", () => {
    const db = chainOf(3);
    const other = seedPrincipal(db);
    db.$client.query("UPDATE receipts SET account_id = ? WHERE seq = 3").run(other.accountId);
    expect(verifyChain(db)).toMatchObject({ ok: false, checked: 2, firstBrokenSeq: 3, problem: "the account_id column differs from the signed body" });
  });

  test("a deleted receipt is reported as the missing sequence number", () => {
    const db = chainOf(6);
    db.$client.run("DELETE FROM receipts WHERE seq = 3");
    expect(verifyChain(db)).toMatchObject({ ok: false, checked: 2, firstBrokenSeq: 3 });
  });

  test("swapping two receipts' positions breaks the chain at the first of them", () => {
    const db = chainOf(5);
    db.$client.run("UPDATE receipts SET seq = -2 WHERE seq = 2");
    db.$client.run("UPDATE receipts SET seq = 2 WHERE seq = 3");
    db.$client.run("UPDATE receipts SET seq = 3 WHERE seq = -2");
    expect(verifyChain(db)).toMatchObject({ ok: false, checked: 1, firstBrokenSeq: 2 });
  });
});

describe("waybill receipts verify", () => {
  test("exits 0 on an intact chain", () => {
    const result = receiptsVerifyCommand(chainOf(3), { json: false });
    expect(result.exitCode).toBe(0);
    expect(result.output).toContain("3 receipts");
  });

  test("exits 1 and names the first broken seq, in text and in JSON", () => {
    const db = chainOf(4);
    flipOneByte(db, 3, "signature");
    const text = receiptsVerifyCommand(db, { json: false });
    expect(text.exitCode).toBe(1);
    expect(text.output).toContain("broken at seq 3");
    const json = receiptsVerifyCommand(db, { json: true });
    expect(json.exitCode).toBe(1);
    expect(JSON.parse(json.output)).toMatchObject({ ok: false, checked: 2, firstBrokenSeq: 3 });
  });
});
