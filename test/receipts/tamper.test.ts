import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Principal } from "../../src/access/principal.ts";
import { ManualClock } from "../../src/clock.ts";
import { openMemoryDatabase, type Db } from "../../src/db/client.ts";
import { validateInput } from "../../src/pipeline/validate.ts";
import { sha256Hex } from "../../src/receipts/canonical.ts";
import { storedReceiptAt } from "../../src/receipts/store.ts";
import { type KeptCheckpoint, verifyLog } from "../../src/receipts/verify.ts";
import { witnessProblem, writeWitness } from "../../src/receipts/witness.ts";
import { auditReportSkill } from "../../src/skills/audit-report/skill.ts";
import type { ReceiptTrace } from "../../src/skills/audit-report/trace.ts";
import { openLedger, sampleEntry, seedPrincipal, T0 } from "./fixtures.ts";

/**
 * Every single-row edit of a receipt log (docs/receipts.md, "What is caught"), each on a fresh log
 * of 300 receipts answered in batches of 50 (checkpoints at 50, 100, ..., 300; one full tile, 0/0),
 * is caught by `receipts verify` and by the audit report. The audit is asked after the server
 * restarts on the edited file (an edit made behind its back): the server either refuses to start,
 * or the audit of the receipt the edit concerns reports a problem.
 */
const SIZE = 300;
const BATCH = 50;
const TARGET = 120; // in the full tile, signed with the batch whose checkpoint is at 150

interface Log {
  db: Db;
  principal: Principal;
  /** The latest checkpoint as a client kept it. */
  kept: KeptCheckpoint;
}

async function logOf(): Promise<Log> {
  const db = openMemoryDatabase();
  const { appendBatch } = await openLedger(db);
  const principal = seedPrincipal(db, { tier: "professional", scopes: ["rate-lookup", "audit-report"] });
  for (let i = 0; i < SIZE; i += BATCH) {
    await appendBatch(
      Array.from({ length: BATCH }, (_, j) => sampleEntry(principal, { issuedAt: T0 + (i + j) * 1000 })),
    );
  }
  const { note, treeSize, rootHash } = db.$client
    .query<{ note: string; treeSize: number; rootHash: string }, []>(
      "SELECT note, tree_size AS treeSize, root_hash AS rootHash FROM log_checkpoints ORDER BY tree_size DESC LIMIT 1",
    )
    .get() as { note: string; treeSize: number; rootHash: string };
  return { db, principal, kept: { size: treeSize, root: Buffer.from(rootHash, "hex"), note } };
}

const flipHexDigit = (column: string) =>
  `unhex(replace(hex(${column}), substr(hex(${column}), 30, 1), CASE substr(hex(${column}), 30, 1) WHEN 'A' THEN 'B' ELSE 'A' END))`;
/** The note with one character of its signature line changed. */
const brokenSignature = (note: string) => {
  const last = note.trimEnd().split("\n").pop() ?? "";
  const at = last.length - 6;
  return note.replace(last, last.slice(0, at) + (last[at] === "A" ? "B" : "A") + last.slice(at + 1));
};
const partOf = (db: Db, column: string) =>
  (db.$client.query(`SELECT ${column} AS id FROM receipts WHERE seq = ${TARGET}`).get() as { id: number }).id;

/** One edit, and which receipt its audit is about (TARGET unless said). */
type Edit = (db: Db) => { audit?: number } | undefined | Promise<undefined>;
const run =
  (sql: string, audit?: number): Edit =>
  (db) => {
    db.$client.run(sql);
    return audit === undefined ? undefined : { audit };
  };

const EDITS: [string, Edit][] = [
  ["receipt: issued_at", run(`UPDATE receipts SET issued_at = issued_at + 1 WHERE seq = ${TARGET}`)],
  ["receipt: skill", run(`UPDATE receipts SET skill = 'lane-comparison' WHERE seq = ${TARGET}`)],
  ["receipt: id", run(`UPDATE receipts SET id = 'rcpt_01HZZZZZZZZZZZZZZZZZZZZZZZ' WHERE seq = ${TARGET}`)],
  ["receipt: as_of", run(`UPDATE receipts SET as_of = '2026-03-01' WHERE seq = ${TARGET}`)],
  ["receipt: known_at", run(`UPDATE receipts SET known_at = known_at + 1 WHERE seq = ${TARGET}`)],
  [
    "receipt: response digest",
    run(`UPDATE receipts SET response_sha256 = ${flipHexDigit("response_sha256")} WHERE seq = ${TARGET}`),
  ],
  ["receipt: leaf entry", run(`UPDATE receipts SET hash = ${flipHexDigit("hash")} WHERE seq = ${TARGET}`)],
  [
    "receipt: response digest with its leaf entry recomputed",
    async (db) => {
      db.$client.run(`UPDATE receipts SET response_sha256 = ${flipHexDigit("response_sha256")} WHERE seq = ${TARGET}`);
      const stored = await storedReceiptAt(db, TARGET);
      db.$client.query(`UPDATE receipts SET hash = unhex(?) WHERE seq = ${TARGET}`).run(sha256Hex(stored?.body ?? ""));
      return undefined;
    },
  ],
  ["receipt: principal part id", run(`UPDATE receipts SET principal_part = request_part WHERE seq = ${TARGET}`)],
  ["receipt: request part id", run(`UPDATE receipts SET request_part = factors_part WHERE seq = ${TARGET}`)],
  ["receipt: factors part id", run(`UPDATE receipts SET factors_part = model_part WHERE seq = ${TARGET}`)],
  ["receipt: model part id", run(`UPDATE receipts SET model_part = principal_part WHERE seq = ${TARGET}`)],
  ["receipt: deleted", run(`DELETE FROM receipts WHERE seq = ${TARGET}`, TARGET + 1)],
  [
    "part: request text",
    (db) =>
      void db.$client.run(
        `UPDATE receipt_parts SET text = replace(text, 'Dallas', 'Austin') WHERE id = ${partOf(db, "request_part")}`,
      ),
  ],
  [
    "part: factors text",
    (db) =>
      void db.$client.run(
        `UPDATE receipt_parts SET text = replace(text, '3.712', '3.713') WHERE id = ${partOf(db, "factors_part")}`,
      ),
  ],
  [
    "part: model text",
    (db) =>
      void db.$client.run(
        `UPDATE receipt_parts SET text = replace(text, '1.0.0', '1.0.1') WHERE id = ${partOf(db, "model_part")}`,
      ),
  ],
  ["tile: a hash changed", run(`UPDATE log_tiles SET hashes = ${flipHexDigit("hashes")} WHERE level = 0 AND idx = 0`)],
  ["tile: deleted", run("DELETE FROM log_tiles WHERE level = 0 AND idx = 0")],
  [
    "latest checkpoint: root",
    run(
      `UPDATE log_checkpoints SET root_hash = lower(hex(${flipHexDigit("unhex(root_hash)")})) WHERE tree_size = ${SIZE}`,
      SIZE,
    ),
  ],
  [
    "latest checkpoint: signature",
    (db) => {
      const { note } = db.$client.query(`SELECT note FROM log_checkpoints WHERE tree_size = ${SIZE}`).get() as {
        note: string;
      };
      db.$client.query(`UPDATE log_checkpoints SET note = ? WHERE tree_size = ${SIZE}`).run(brokenSignature(note));
      return { audit: SIZE };
    },
  ],
  ["latest checkpoint: deleted", run(`DELETE FROM log_checkpoints WHERE tree_size = ${SIZE}`, SIZE)],
  ["every checkpoint: deleted", run("DELETE FROM log_checkpoints")],
  [
    "the receipt's own checkpoint: root",
    run(`UPDATE log_checkpoints SET root_hash = lower(hex(${flipHexDigit("unhex(root_hash)")})) WHERE tree_size = 150`),
  ],
  [
    "the receipt's own checkpoint: signature",
    (db) => {
      const { note } = db.$client.query("SELECT note FROM log_checkpoints WHERE tree_size = 150").get() as {
        note: string;
      };
      db.$client.query("UPDATE log_checkpoints SET note = ? WHERE tree_size = 150").run(brokenSignature(note));
      return undefined;
    },
  ],
  [
    "signing key: public key",
    run("UPDATE signing_keys SET public_key = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'"),
  ],
];

/** The receipt's audit after a restart: the problems it reports, or the server's refusal to start. */
async function auditAfterRestart(db: Db, principal: Principal, seq: number): Promise<string[]> {
  let restarted: Awaited<ReturnType<typeof openLedger>>;
  try {
    restarted = await openLedger(db, { clock: new ManualClock(T0 + 3_600_000) });
  } catch (error) {
    return [`refused to start: ${(error as Error).message}`];
  }
  const row = db.$client.query(`SELECT id FROM receipts WHERE seq = ${seq}`).get() as { id: string } | null;
  if (!row) return [`receipt seq ${seq} is gone`];
  const validated = validateInput(auditReportSkill.input, { receipt_id: row.id }, "query") as never;
  const instance = { db, reference: undefined as never, skills: [], log: restarted.ledger.log };
  const { answer } = await auditReportSkill.handler(validated, {
    data: undefined as never,
    caller: principal,
    instance,
  });
  return (answer as ReceiptTrace).verification.problems;
}

describe("single-row edits of the receipt log", () => {
  test("the untouched log verifies and audits clean (the baseline every case departs from)", async () => {
    const { db, principal, kept } = await logOf();
    expect(await verifyLog(db, [kept])).toEqual({ ok: true, checked: SIZE, checkpoints: SIZE / BATCH + 1 });
    expect(await auditAfterRestart(db, principal, TARGET)).toEqual([]);
    expect(await auditAfterRestart(db, principal, SIZE)).toEqual([]);
  });

  test.each(EDITS)("%s: caught by verify and by the audit", async (_name, edit) => {
    const { db, principal } = await logOf();
    const audited = (await edit(db))?.audit ?? TARGET;
    const verified = await verifyLog(db);
    expect(verified.ok).toBe(false);
    expect(verified.problem).toBeString();
    expect(await auditAfterRestart(db, principal, audited)).not.toEqual([]);
  });

  test("trimming the newest receipts with their checkpoints is caught against a kept checkpoint", async () => {
    const { db, kept } = await logOf();
    db.$client.run("DELETE FROM receipts WHERE seq > 250");
    db.$client.run("DELETE FROM log_checkpoints WHERE tree_size > 250");
    expect((await verifyLog(db)).ok).toBe(true); // what the database alone still says
    expect(await verifyLog(db, [kept])).toMatchObject({
      ok: false,
      failedCheckpoint: SIZE,
      problem: expect.stringContaining("covers receipts the log no longer has"),
    });
    // The server's witness file holds the same checkpoint: its next start is refused.
    const witness = join(mkdtempSync(join(tmpdir(), "waybill-witness-")), "log.db.checkpoint");
    writeWitness(witness, kept.note);
    expect(await witnessProblem(db, witness)).toContain(`the log no longer holds the checkpoint of ${SIZE} receipts`);
  });

  test("the witness file passes on an intact log and catches a rewritten one", async () => {
    const { db, kept } = await logOf();
    const witness = join(mkdtempSync(join(tmpdir(), "waybill-witness-")), "log.db.checkpoint");
    expect(await witnessProblem(db, witness)).toBeNull(); // none yet: nothing to hold the log to
    writeWitness(witness, kept.note);
    expect(await witnessProblem(db, witness)).toBeNull();
    db.$client.run(
      `UPDATE log_checkpoints SET root_hash = lower(hex(${flipHexDigit("unhex(root_hash)")})) WHERE tree_size = ${SIZE}`,
    );
    expect(await witnessProblem(db, witness)).toContain("differs from the one kept in");
  });
});
