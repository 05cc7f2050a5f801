import type { Principal } from "../../src/access/principal.ts";
import type { UsageEvent } from "../../src/metering/meter.ts";

/** The usage row of one answered call, as the benches write it (figures that do not matter held fixed). */
export function answeredUsage(principal: Principal, skill: string, receiptId: string, at: number): UsageEvent {
  return { at, requestId: "req_bench", accountId: principal.accountId, keyId: principal.keyId, skill, status: 200, latencyMs: 1, receiptId };
}
