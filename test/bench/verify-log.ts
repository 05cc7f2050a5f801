// Log costs, not a test: `bun test/bench/verify-log.ts [receipts]`. Appends receipts in group-commit
// batches of 32 to a file database (WAL, synchronous=FULL), then times `receipts verify` (verifyLog)
// over the whole log, an inclusion and a consistency proof, and prints the file's bytes per receipt.
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../src/db/client.ts";
import { generateKeyPairSync, sign, verify } from "node:crypto";
import type { Db } from "../../src/db/client.ts";
import { sha256Hex } from "../../src/receipts/canonical.ts";
import { asc, gt } from "drizzle-orm";
import { readStoredReceipts, storedReceiptAt } from "../../src/receipts/store.ts";
import { verifyLog } from "../../src/receipts/verify.ts";
import { openLedger, sampleEntry, seedPrincipal } from "../receipts/fixtures.ts";
import { defined } from "../support/defined.ts";

const entryBody = async (db: Db) => defined(await storedReceiptAt(db, 1), "storedReceiptAt(db, 1)").body;
/** Every receipt with its body text, in log order, a page at a time (what the pre-log walk read). */
async function* withBodies(db: Db): AsyncGenerator<{ body: string; hash: string }> {
  const page = (afterSeq: number) =>
    readStoredReceipts(db, gt(db.t.receipts.seq, afterSeq), [asc(db.t.receipts.seq)], 4096);
  for (
    let rows = await page(0);
    rows.length > 0;
    rows = await page(defined(rows[rows.length - 1], "rows[rows.length - 1]").seq)
  )
    yield* rows;
}
const COUNT = Number(process.argv[2] ?? 100_000);
const BATCH = 32;
const dir = mkdtempSync(join(process.cwd(), ".tmp", "verify-log-"));
try {
  const file = join(dir, "log.db");
  const db = openDatabase(file);
  const { ledger, appendBatch } = await openLedger(db);
  const principal = seedPrincipal(db);
  const entry = sampleEntry(principal);
  let started = performance.now();
  for (let i = 0; i < COUNT; i += BATCH)
    await appendBatch(Array.from({ length: Math.min(BATCH, COUNT - i) }, () => entry));
  const appendMicros = ((performance.now() - started) * 1000) / COUNT;
  db.$client.run("PRAGMA wal_checkpoint(TRUNCATE)");
  started = performance.now();
  const result = await verifyLog(db);
  const verifyMicros = ((performance.now() - started) * 1000) / COUNT;
  // What the pre-log chain walk did per receipt, in this same run: read, hash, parse, one Ed25519 verify.
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const signature = sign(null, Buffer.from(await entryBody(db)), privateKey);
  started = performance.now();
  let intact = 0;
  for await (const row of withBodies(db)) {
    // (Only the first body is the one signed here; the cost of checking is the same for every row.)
    if (
      sha256Hex(row.body) === row.hash &&
      JSON.parse(row.body) &&
      verify(null, Buffer.from(row.body), publicKey, signature)
    )
      intact += 1;
  }
  if (intact !== 1) throw new Error("the comparison walk checked the wrong thing");
  const chainMicros = ((performance.now() - started) * 1000) / COUNT;
  started = performance.now();
  for (let i = 0; i < 1000; i++) ledger.log.inclusionProof((i * 7919) % COUNT, COUNT);
  const inclusionMicros = performance.now() - started;
  started = performance.now();
  for (let i = 1; i <= 1000; i++) ledger.log.consistencyProof((i * 104_729) % COUNT || 1, COUNT);
  const consistencyMicros = performance.now() - started;
  console.log(`${COUNT} receipts (Bun ${Bun.version}): ok=${result.ok}, ${result.checkpoints} checkpoints`);
  console.log(`append in batches of ${BATCH} (incl. tiles, checkpoint, fsync): ${appendMicros.toFixed(1)} µs/receipt`);
  console.log(`verifyLog: ${verifyMicros.toFixed(2)} µs/receipt = ${verifyMicros.toFixed(1)} s per million`);
  console.log(
    `the pre-log chain walk's per-receipt work (signature check per receipt), same run: ${chainMicros.toFixed(2)} µs/receipt; ratio ${(chainMicros / verifyMicros).toFixed(1)}×`,
  );
  console.log(
    `inclusion proof: ${inclusionMicros.toFixed(1)} µs; consistency proof: ${consistencyMicros.toFixed(1)} µs (mean of 1000)`,
  );
  console.log(
    `database file: ${Math.round(statSync(file).size / COUNT)} bytes per receipt (sample bodies of ${(await entryBody(db)).length} bytes, stored compactly)`,
  );
  db.$client.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
