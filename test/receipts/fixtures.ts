import type { Principal } from "../../src/access/principal.ts";
import type { Tier } from "../../src/access/tiers.ts";
import type { Scope } from "../../src/skills/catalog.ts";
import type { Db } from "../../src/db/client.ts";
import type { ReceiptEntry } from "../../src/receipts/ledger.ts";


export const T0 = Date.parse("2026-03-02T15:04:05.678Z");

export const SAMPLE_RESPONSE = { rate_per_mile: 2.137, total_cost: 2051.52, miles: 960, confidence: { level: "HIGH", score: 0.82 } };

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
    ...overrides,
  };
}
