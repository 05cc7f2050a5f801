import { Elysia } from "elysia";
import { activeKeyOf } from "../access/keys.ts";
import type { Principal } from "../access/principal.ts";
import { TIERS } from "../access/tiers.ts";
import { ApiError } from "../errors.ts";
import type { Meter } from "../metering/meter.ts";
import { usageReport } from "../metering/usage-report.ts";
import type { WindowStatus } from "../metering/window-status.ts";
import { answerInputsFreshness } from "../reference/series/freshness.ts";
import { disabledForFailing } from "../webhooks/endpoints.ts";
import { OverviewPage } from "../../views/overview/overview-page.tsx";
import type { DashboardContext } from "./context.ts";
import { sessionGuard } from "./guard.ts";
import { pageResponse } from "./render.ts";

/** Overview: tier, limits, month to date against the quota, and the active key's minute headroom. */
export function overviewRoutes(context: DashboardContext) {
  return new Elysia({ name: "dashboard-overview" }).use(sessionGuard(context)).get(
    "/dashboard",
    async ({ signedIn: { account, viewer, now } }) => {
      const limits = context.limits[account.tier];
      const report = await usageReport(context.db, account.id, now, limits);
      const key = await activeKeyOf(context.db, account.id);
      const principal: Principal | null = key
        ? {
            accountId: account.id,
            keyId: key.id,
            authObjId: key.authObjId,
            tier: account.tier,
            scopes: key.scopes as Principal["scopes"],
          }
        : null;
      const minute = principal ? await minuteOfActiveKey(context.meter, principal, now) : null;
      return pageResponse(
        OverviewPage({
          viewer,
          tier: account.tier,
          perMinute: limits.perMinute,
          perMonth: limits.perMonth,
          month: report.month,
          usedThisMonth: report.quota.used,
          refusedThisMonth: report.totals.refused,
          monthResetsAt: report.reset * 1000,
          minuteRemaining: minute?.remaining ?? limits.perMinute,
          minuteResetsAt: minute?.resetAt ?? now,
          activeKeyDisplayId: key?.displayId ?? null,
          skills: context.catalog.scopesForTier(account.tier),
          nextTier: TIERS[TIERS.indexOf(account.tier) + 1] ?? null,
          failedWebhooks: await disabledForFailing(context.db, account.id),
          dataFreshness: answerInputsFreshness(context.dataFreshness()),
        }),
      );
    },
    { signedIn: "account" },
  );
}

/** The key's minute, or null when it was revoked since it was read (the meter's read refuses it on PostgreSQL). */
async function minuteOfActiveKey(
  meter: Pick<Meter, "windows">,
  principal: Principal,
  now: number,
): Promise<WindowStatus | null> {
  try {
    return (await meter.windows(principal, now)).minute;
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}
