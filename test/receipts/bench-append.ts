// Append cost, not a test: `bun test/receipts/bench-append.ts`. Prints µs per append for one append
// per transaction and 100 per transaction, on a file database (WAL, synchronous=FULL) and in memory.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, openMemoryDatabase, type Db } from "../../src/db/client.ts";
import { createReceiptLedger } from "../../src/receipts/chain.ts";
import { verifyChain } from "../../src/receipts/verify.ts";
import { sampleEntry } from "./fixtures.ts";
import { seedPrincipal } from "../support/accounts.ts";

function measure(label: string, db: Db, perTransaction: number, transactions: number) {
  const ledger = createReceiptLedger(db);
  const principal = seedPrincipal(db);
  const entry = sampleEntry(principal);
  const append = () => {
    for (let i = 0; i < perTransaction; i++) ledger.append(db, entry);
  };
  for (let i = 0; i < 20; i++) db.$client.transaction(append).immediate(); // warm-up
  const started = performance.now();
  for (let i = 0; i < transactions; i++) db.$client.transaction(append).immediate();
  const micros = ((performance.now() - started) * 1000) / (perTransaction * transactions);
  console.log(`${label.padEnd(34)} ${micros.toFixed(1).padStart(8)} µs/append`);
}

const dir = mkdtempSync(join(tmpdir(), "waybill-bench-"));
try {
  measure("file, 1 append per transaction", openDatabase(join(dir, "a.db")), 1, 1000);
  measure("file, 100 appends per transaction", openDatabase(join(dir, "b.db")), 100, 50);
  measure("memory, 1 append per transaction", openMemoryDatabase(), 1, 5000);
  const memory = openMemoryDatabase();
  measure("memory, 100 appends per transaction", memory, 100, 50);
  const started = performance.now();
  const { checked } = verifyChain(memory);
  console.log(`verifyChain over ${checked} receipts: ${(((performance.now() - started) * 1000) / checked).toFixed(1)} µs/receipt`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
