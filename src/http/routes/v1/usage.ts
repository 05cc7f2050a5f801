import { Elysia } from "elysia";
import type { Principal } from "../../../access/principal.ts";
import type { Clock } from "../../../clock.ts";
import type { Store } from "../../../db/client.ts";
import type { LimitsTable } from "../../../metering/limits.ts";
import type { Meter } from "../../../metering/meter.ts";
import { usageReport } from "../../../metering/usage-report.ts";
import { resetSeconds } from "../../../metering/window-status.ts";
import { attributeRequest } from "../../pipeline/request-pipeline.ts";

export interface UsageRouteDeps {
  db: Store;
  clock: Clock;
  limits: LimitsTable;
  meter: Meter;
}

/**
 * GET /v1/usage: any valid key reads its own account's month to date and the key's minute headroom.
 * Not a skill, so it is neither metered nor logged. `authenticate` throws the error table's 401s.
 */
export function usageRoute(
  deps: UsageRouteDeps,
  authenticate: (authorization: string | undefined) => Promise<Principal>,
) {
  return new Elysia({ name: "waybill.usage" }).get("/v1/usage", async ({ headers, request }) => {
    const principal = await authenticate(headers.authorization);
    attributeRequest(request, principal.accountId, true);
    const now = deps.clock.now();
    const { minute } = await deps.meter.windows(principal, now);
    return {
      ...(await usageReport(deps.db, principal.accountId, now, deps.limits[principal.tier])),
      minute: { limit: minute.limit, remaining: minute.remaining, reset: resetSeconds(minute) },
      auth_obj_id: principal.authObjId,
    };
  });
}
