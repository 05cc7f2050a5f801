import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { openDatabase, PRAGMAS, type Db } from "../../src/db/client.ts";
import { MIGRATIONS_DIR } from "../../src/paths.ts";
import { findOwnReceipt } from "../../src/receipts/store.ts";
import { verifyLog } from "../../src/receipts/verify.ts";
import { receiptTrace } from "../../src/skills/audit-report/trace.ts";
import { openLedger, sampleEntry, seedPrincipal } from "./fixtures.ts";
import { writeLegacyReceipts } from "./legacy-fixture.ts";

/**
 * A database file as the version before the log left it (every migration before the log's, receipts signed
 * one by one in a chain), upgraded the way a start does it: the schema migrations, then the log's
 * catch-up in code. The legacy receipts must survive the table rebuild and stay verifiable.
 */
test("a pre-log database file upgrades: its chained receipts become the log's first leaves and still verify", () => {
  const dir = mkdtempSync(join(process.cwd(), ".tmp", "upgrade-"));
  try {
    const firstOnly = join(dir, "migrations");
    cpSync(MIGRATIONS_DIR, firstOnly, { recursive: true });
    const journalFile = join(firstOnly, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
    writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, -1) }));

    const file = join(dir, "old.db");
    const old = new Database(file, { create: true, strict: true });
    for (const pragma of PRAGMAS) old.run(`PRAGMA ${pragma}`);
    const oldDb = drizzle({ client: old }) as unknown as Db;
    migrate(oldDb, { migrationsFolder: firstOnly });
    const principal = seedPrincipal(oldDb);
    writeLegacyReceipts(oldDb, principal, 40);
    old.close();

    const db = openDatabase(file); // every migration, as a start runs them
    const { ledger, append } = openLedger(db);
    expect(ledger.log.latest()?.size).toBe(40);
    append(sampleEntry(principal));
    expect(verifyLog(db)).toEqual({ ok: true, checked: 41, checkpoints: 2 });
    const legacy = db.$client.query<{ signature: string | null; prev_hash: string | null }, []>("SELECT signature, prev_hash FROM receipts WHERE seq = 40").get()!;
    expect(legacy.signature).toBeString();
    expect(legacy.prev_hash).toMatch(/^[0-9a-f]{64}$/);

    // The audit report proves a legacy receipt like any other, and still checks its own signature and link.
    const own = findOwnReceipt(db, "rcpt_01JLEGACY00000000000000040", principal.accountId);
    const instance = { db, reference: {} as never, skills: [], log: ledger.log };
    const report = receiptTrace(instance, own);
    expect(report.log.legacy).toMatchObject({ seq: 40, algorithm: "Ed25519" });
    expect(report.log).toMatchObject({ log_index: 39, tree_size: 41 });
    expect(report.verification).toMatchObject({ hash_valid: true, included: true, signature_valid: true, link_valid: true, problems: [] });
    db.$client.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
