// Worker for chain.test.ts: its own connection and ledger, appending while other threads do the same.
// It opens everything on "setup", reports "ready", and starts writing only on "go", so writers overlap.
import type { Principal } from "../../src/access/principal.ts";
import { openDatabase, type Db } from "../../src/db/client.ts";
import { createReceiptLedger, type WaybillReceiptLedger } from "../../src/receipts/chain.ts";
import { sampleEntry } from "./fixtures.ts";

declare const self: Worker;

export type WriterMessage = { kind: "setup"; file: string; principal: Principal; appends: number } | { kind: "go" };

let state: { db: Db; ledger: WaybillReceiptLedger; principal: Principal; appends: number } | undefined;

self.onmessage = async (event: MessageEvent<WriterMessage>) => {
  const message = event.data;
  if (message.kind === "setup") {
    const db = openDatabase(message.file);
    state = { db, ledger: createReceiptLedger(db), principal: message.principal, appends: message.appends };
    postMessage("ready");
    return;
  }
  if (!state) throw new Error("go before setup");
  const { db, ledger, principal, appends } = state;
  const seqs: number[] = [];
  for (let i = 0; i < appends; i++) {
    seqs.push(db.$client.transaction(() => ledger.append(db, sampleEntry(principal, { issuedAt: Date.now() }))).immediate().seq);
    // Between transactions, give the other writers a chance at the write lock.
    await Bun.sleep(Math.random() * 2);
  }
  db.$client.close();
  postMessage(seqs);
};
