import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { openDatabase, PRAGMAS, type Db } from "../../src/db/client.ts";
import { MIGRATIONS_DIR } from "../../src/paths.ts";
import { findOwnReceipt, storedReceiptAt } from "../../src/receipts/store.ts";
import { sha256Hex } from "../../src/receipts/canonical.ts";
import { verifyLog } from "../../src/receipts/verify.ts";
import { receiptTrace } from "../../src/skills/audit-report/trace.ts";
import { openLedger, sampleEntry, seedPrincipal } from "./fixtures.ts";
import { writeLegacyReceipts, writeTextBodyReceipts } from "./legacy-fixture.ts";
import { defined } from "../support/defined.ts";

/**
 * A database file as the version before the log left it (every migration before the log's, receipts signed
 * one by one in a chain), upgraded the way a start does it: the schema migrations, then the log's
 * catch-up in code. The legacy receipts must survive the table rebuild and stay verifiable.
 */
/** A database file migrated up to the schema before compact receipts (migration tag `upTo`, inclusive). */
function oldDatabase(dir: string, upTo: string): { file: string; old: Database; oldDb: Db } {
  const someOnly = join(dir, "migrations");
  cpSync(MIGRATIONS_DIR, someOnly, { recursive: true });
  const journalFile = join(someOnly, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  const last = journal.entries.findIndex((entry) => entry.tag === upTo);
  writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, last + 1) }));
  const file = join(dir, "old.db");
  const old = new Database(file, { create: true, strict: true });
  for (const pragma of PRAGMAS) old.run(`PRAGMA ${pragma}`);
  const oldDb = drizzle({ client: old }) as unknown as Db;
  migrate(oldDb, { migrationsFolder: someOnly });
  return { file, old, oldDb };
}

const BEFORE_COMPACT_RECEIPTS = "0004_alerts_events_webhooks";

test("a pre-log database file upgrades: its chained receipts become the log's first leaves and still verify", async () => {
  const dir = mkdtempSync(join(process.cwd(), ".tmp", "upgrade-"));
  try {
    const { file, old, oldDb } = oldDatabase(dir, BEFORE_COMPACT_RECEIPTS);
    const principal = seedPrincipal(oldDb);
    await writeLegacyReceipts(oldDb, principal, 40);
    old.close();

    const db = openDatabase(file); // every migration, as a start runs them
    const { ledger, append } = await openLedger(db);
    expect(ledger.log.latest()?.size).toBe(40);
    await append(sampleEntry(principal));
    expect(await verifyLog(db)).toEqual({ ok: true, checked: 41, checkpoints: 2 });
    const legacy = defined(
      db.$client
        .query<{ signature: string | null; prev_hash: string | null }, []>(
          "SELECT signature, prev_hash FROM receipts WHERE seq = 40",
        )
        .get(),
      "the row of SELECT signature, prev_hash FROM receipts WHERE seq = 40",
    );
    expect(legacy.signature).toBeString();
    expect(legacy.prev_hash).toMatch(/^[0-9a-f]{64}$/);

    // The audit report proves a legacy receipt like any other, and still checks its own signature and link.
    const own = await findOwnReceipt(db, "rcpt_01JLEGACY00000000000000040", principal.accountId);
    const instance = { db, reference: {} as never, skills: [], log: ledger.log };
    const report = await receiptTrace(instance, own);
    expect(report.log.legacy).toMatchObject({ seq: 40, algorithm: "Ed25519" });
    expect(report.log).toMatchObject({ log_index: 39, tree_size: 41 });
    expect(report.verification).toMatchObject({
      hash_valid: true,
      included: true,
      signature_valid: true,
      link_valid: true,
      problems: [],
    });
    db.$client.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * Receipts of the log era stored with their whole body text (before compact receipts): the upgrade
 * rewrites each as parts that rebuild the very same bytes, so leaf entries, tiles and checkpoints stay.
 */
test("receipts stored with their body text are compacted at the first start and rebuild byte for byte", async () => {
  const dir = mkdtempSync(join(process.cwd(), ".tmp", "upgrade-"));
  try {
    const { file, old, oldDb } = oldDatabase(dir, BEFORE_COMPACT_RECEIPTS);
    const principal = seedPrincipal(oldDb);
    const bodies = writeTextBodyReceipts(oldDb, principal, 300);
    // One body that the parts cannot rebuild (an extra member): it must stay whole, and still verify.
    const odd = defined(bodies[299], "bodies[299]").replace('"as_of"', '"_extra":1,"as_of"');
    old.query("UPDATE receipts SET body = ?, hash = ? WHERE seq = 300").run(odd, sha256Hex(odd));
    old.close();

    const db = openDatabase(file);
    const { ledger, append } = await openLedger(db);
    expect(ledger.log.latest()?.size).toBe(300);
    const whole = db.$client.query<{ seq: number }, []>("SELECT seq FROM receipts WHERE body IS NOT NULL").all();
    expect(whole).toEqual([{ seq: 300 }]);
    for (const seq of [1, 2, 150]) {
      const row = await storedReceiptAt(db, seq);
      expect(row?.body).toBe(defined(bodies[seq - 1], "bodies[seq - 1]"));
    }
    await append(sampleEntry(principal));
    expect(await verifyLog(db)).toEqual({ ok: true, checked: 301, checkpoints: 2 });
    // A compacted receipt is still tamper-evident: its columns are its body.
    db.$client.run("UPDATE receipts SET as_of = '2026-03-01' WHERE seq = 7");
    expect(await verifyLog(db)).toMatchObject({ ok: false, firstBrokenSeq: 7 });
    db.$client.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
