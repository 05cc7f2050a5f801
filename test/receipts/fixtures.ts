import type { Principal } from "../../src/access/principal.ts";
import type { Db } from "../../src/db/client.ts";
import { ManualClock } from "../../src/clock.ts";
import { GroupCommitter } from "../../src/db/group-commit.ts";
import type { AppendedReceipt, ReceiptEntry } from "../../src/receipts/ledger.ts";
import { openReceiptLedger, type LedgerOptions } from "../../src/receipts/receipt-ledger.ts";
import { defined } from "../support/defined.ts";
import { fileLedgerStorage } from "../../src/receipts/ledger-storage.ts";

export { seedPrincipal } from "../support/accounts.ts";

export const T0 = Date.parse("2026-03-02T15:04:05.678Z");

export const SAMPLE_RESPONSE = {
  rate_per_mile: 2.137,
  total_cost: 2051.52,
  miles: 960,
  confidence: { level: "HIGH", score: 0.82 },
};

/** A plausible rate-lookup answer to record. */
export function sampleEntry(principal: Principal, overrides: Partial<ReceiptEntry> = {}): ReceiptEntry {
  return {
    issuedAt: T0,
    skill: "rate-lookup",
    principal,
    request: { origin: "Chicago, IL", destination: "Dallas, TX", equipment: "DRY_VAN" },
    response: SAMPLE_RESPONSE,
    factorVersions: [
      { series_id: "EMD_EPD2D_PTE_NUS_DPG", value: 3.712, observation_date: "2026-02-23", import_id: "imp_snapshot_1" },
    ],
    modelVersion: "cost-basis/1.0.0",
    asOf: "2026-03-02",
    knownAt: T0,
    usage: { requestId: "req_sample", latencyMs: 1.5 },
    ...overrides,
  };
}

/** A ledger whose appends commit when awaited, each call in its own group-commit batch (one checkpoint each). */
export async function openLedger(db: Db, options: LedgerOptions = {}) {
  const ledger = await openReceiptLedger(db, fileLedgerStorage(db), {
    clock: new ManualClock(T0),
    origin: "waybill.test/log",
    ...options,
  });
  const committer = new GroupCommitter(db);
  committer.join(ledger.log);
  committer.join(ledger.parts);
  /** Append several receipts in one batch: one transaction, one checkpoint (a failing append is left out). */
  const appendBatch = async (entries: ReceiptEntry[]): Promise<AppendedReceipt[]> => {
    const appended: AppendedReceipt[] = [];
    for (const entry of entries)
      committer
        .commit(async (tx) => {
          appended.push(await ledger.append(tx, entry));
        })
        .catch(() => {});
    await committer.flush();
    return appended;
  };
  /** Append in a batch of its own and commit it (and sign its checkpoint). */
  const append = async (entry: ReceiptEntry): Promise<AppendedReceipt> =>
    defined((await appendBatch([entry]))[0], "appendBatch([entry])[0]");
  return { ledger, committer, append, appendBatch };
}
