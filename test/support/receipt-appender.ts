// A replica that only appends receipts, for the kill -9 test (test/receipts/shared-log-kill.postgres.test.ts):
// `bun test/support/receipt-appender.ts URL PRINCIPAL_JSON`. It appends in waves of concurrent calls
// through the group committer and prints "<log index> <receipt id>" for each call once it is answered
// (after its batch's COMMIT), until it is killed.
import type { Principal } from "../../src/access/principal.ts";
import { systemClock } from "../../src/clock.ts";
import { GroupCommitter } from "../../src/db/group-commit.ts";
import { openStore } from "../../src/db/open.ts";
import { openReceiptLedger } from "../../src/receipts/receipt-ledger.ts";
import { sampleEntry } from "../receipts/fixtures.ts";
import { portableLedgerStorage } from "../../src/receipts/ledger-storage.ts";

const [url, principalJson] = process.argv.slice(2);
if (!url || !principalJson) throw new Error("usage: receipt-appender.ts URL PRINCIPAL_JSON");
const principal = JSON.parse(principalJson) as Principal;
const { store } = await openStore({ dialect: "postgres", url });
const ledger = await openReceiptLedger(store, portableLedgerStorage(store), {
  clock: systemClock,
  origin: "waybill.test/log",
});
const committer = new GroupCommitter(store);
committer.join(ledger.log);
committer.join(ledger.parts);
const answer = async () => {
  const receipt = await committer.commit((tx) => ledger.append(tx, sampleEntry(principal, { issuedAt: Date.now() })));
  process.stdout.write(`${receipt.logIndex} ${receipt.id}\n`);
};
for (;;) await Promise.all(Array.from({ length: 16 }, answer));
