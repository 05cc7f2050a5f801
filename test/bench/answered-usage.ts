import type { Principal } from "../../src/access/principal.ts";
import type { UsageEvent } from "../../src/metering/meter.ts";

/** A request id as long as the server's own (`req_` + a 26-character ULID), so stored bytes compare fairly. */
export const BENCH_REQUEST_ID = "req_01KAQZ7M3N5P8R2T4V6X9Y0B1C";

/** The usage row of one answered call, as the benches wrote it before migration 0008 (figures that do not matter held fixed). */
export function answeredUsage(principal: Principal, skill: string, receiptId: string, at: number): UsageEvent {
  return {
    at,
    requestId: BENCH_REQUEST_ID,
    accountId: principal.accountId,
    keyId: principal.keyId,
    skill,
    status: 200,
    latencyMs: 1,
    receiptId,
  };
}
