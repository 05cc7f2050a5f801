import { Elysia } from "elysia";
import { UsagePage } from "../../views/usage/usage-page.tsx";
import type { DashboardContext } from "./context.ts";
import { sessionGuard } from "./guard.ts";
import { pageResponse } from "./render.ts";
import { accountUsage } from "./usage-data.ts";

export function usageRoutes(context: DashboardContext) {
  return new Elysia({ name: "dashboard-usage" }).use(sessionGuard(context)).get(
    "/dashboard/usage",
    ({ signedIn: { account, viewer, now } }) =>
      pageResponse(UsagePage({ viewer, ...accountUsage(context.db, account.id, now, context.limits[account.tier]) })),
    { signedIn: "account" },
  );
}
