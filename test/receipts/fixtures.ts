import type { Principal } from "../../src/access/principal.ts";
import type { Tier } from "../../src/access/tiers.ts";
import type { Scope } from "../../src/skills/catalog.ts";
import type { Db } from "../../src/db/client.ts";
import type { ReceiptEntry } from "../../src/receipts/ledger.ts";

let counter = 0;

/** An account and its active key, inserted with plain SQL (receipts reference accounts). */
export function seedPrincipal(db: Db, options: { tier?: Tier; scopes?: Scope[] | null } = {}): Principal {
  counter += 1;
  const suffix = String(counter).padStart(4, "0");
  const principal: Principal = {
    accountId: `acct_test${suffix}`,
    keyId: `key_test${suffix}`,
    authObjId: `auth_obj_test${suffix}`,
    tier: options.tier ?? "professional",
    scopes: options.scopes ?? null,
  };
  db.$client
    .query("INSERT INTO accounts (id, email, tier, is_admin, created_at) VALUES (?, ?, ?, 0, 0)")
    .run(principal.accountId, `user${suffix}@example.test`, principal.tier);
  db.$client
    .query(
      "INSERT INTO api_keys (id, account_id, digest, display_id, auth_obj_id, scopes, created_at) VALUES (?, ?, ?, ?, ?, ?, 0)",
    )
    .run(
      principal.keyId,
      principal.accountId,
      `digest${suffix}`,
      `wbk_0000${suffix}…`,
      principal.authObjId,
      principal.scopes ? JSON.stringify(principal.scopes) : null,
    );
  return principal;
}

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
