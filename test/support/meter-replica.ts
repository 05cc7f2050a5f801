// One "replica" of the metering suite (test/metering/postgres-meter.test.ts), as a process of its own:
// `bun test/support/meter-replica.ts '<json>'` opens the PostgreSQL database, waits until `startAt`,
// then makes `calls` concurrent calls for one principal at the instant `now`, each the way the
// pipeline does (admit, a short handler, then the month count and the receipt carrying the call's
// usage in a group-commit batch), and prints one JSON line: how many were answered and how many refused by which window.
import type { Principal } from "../../src/access/principal.ts";
import { openStore } from "../../src/db/open.ts";
import { GroupCommitter } from "../../src/db/group-commit.ts";
import { ApiError } from "../../src/errors.ts";
import { createPostgresMeter } from "../../src/metering/postgres-meter.ts";
import { parseLimits } from "../../src/metering/limits.ts";
import { createUsageLog } from "../../src/metering/usage-log.ts";
import { postgresUsageWrites } from "../../src/metering/usage-writes.ts";
import { postgresStoreOf } from "../../src/db/postgres.ts";
import { openReceiptLedger } from "../../src/receipts/receipt-ledger.ts";
import { sampleEntry } from "../receipts/fixtures.ts";
import { defined } from "./defined.ts";
import { portableLedgerStorage } from "../../src/receipts/ledger-storage.ts";

export interface ReplicaOrder {
  url: string;
  principal: Principal;
  /** A WAYBILL_LIMITS override. */
  limits: string;
  calls: number;
  /** The instant every call is made at (epoch ms). */
  now: number;
  /** Wall-clock epoch ms at which to start, so the processes fire together. */
  startAt: number;
}

export interface ReplicaOutcome {
  answered: number;
  refused: { minute: number; month: number };
  /** Anything else that went wrong (a test failure). */
  errors: string[];
}

const order = JSON.parse(defined(process.argv[2], "process.argv[2]")) as ReplicaOrder;
const { store, close } = await openStore({ dialect: "postgres", url: order.url });
const meter = createPostgresMeter({ db: store, limits: parseLimits(order.limits) });
const usage = createUsageLog(postgresUsageWrites(postgresStoreOf(store)));
const ledger = await openReceiptLedger(store, portableLedgerStorage(store), { origin: "waybill.test/log" });
const committer = new GroupCommitter(store);
// As runtime.ts joins them: the month counts first, once per batch and account.
if (meter.batch) committer.join(meter.batch);
for (const participant of [ledger.log, ledger.parts, usage.batch]) committer.join(participant);
const outcome: ReplicaOutcome = { answered: 0, refused: { minute: 0, month: 0 }, errors: [] };

const oneCall = async (n: number) => {
  let admission: Awaited<ReturnType<typeof meter.admit>> | undefined;
  try {
    admission = await meter.admit(order.principal, order.now);
    await Bun.sleep(n % 4); // the handler: calls of one process reach the commit at different turns
    const granted = admission;
    await committer.commit(async (tx) => {
      await granted.commit(tx);
      const usageOfCall = { requestId: `req_${process.pid}_${n}`, latencyMs: 1 };
      await ledger.append(
        tx,
        sampleEntry(order.principal, {
          skill: "meter-suite",
          issuedAt: Date.now(),
          knownAt: order.now,
          usage: usageOfCall,
        }),
      );
      await usage.recordAnswered(tx, order.principal.keyId, order.now);
    });
    outcome.answered += 1;
  } catch (error) {
    admission?.release();
    const window =
      error instanceof ApiError && error.errorCode === "RATE_LIMITED"
        ? (error.extra.window as "minute" | "month")
        : undefined;
    if (window) outcome.refused[window] += 1;
    else outcome.errors.push(String((error as Error).stack ?? error));
  }
};

await Bun.sleep(Math.max(0, order.startAt - Date.now()));
await Promise.all(Array.from({ length: order.calls }, (_, n) => oneCall(n)));
await committer.close();
await meter.close();
await close();
console.log(JSON.stringify(outcome));
