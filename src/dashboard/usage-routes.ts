import { Elysia } from "elysia";
import { monthCalls } from "../metering/usage-report.ts";
import { UsagePage } from "../../views/usage/usage-page.tsx";
import type { DashboardContext } from "./context.ts";
import { sessionGuard } from "./guard.ts";
import { pageResponse } from "./render.ts";
import { usageCsv } from "./usage-csv.ts";
import { accountUsage } from "./usage-data.ts";

export function usageRoutes(context: DashboardContext) {
  return new Elysia({ name: "dashboard-usage" })
    .use(sessionGuard(context))
    .get(
      "/dashboard/usage",
      async ({ signedIn: { account, viewer, now } }) =>
        pageResponse(
          UsagePage({ viewer, ...(await accountUsage(context.db, account.id, now, context.limits[account.tier])) }),
        ),
      { signedIn: "account" },
    )
    .get(
      "/dashboard/usage.csv",
      async ({ signedIn: { account, now } }) => {
        const month = new Date(now).toISOString().slice(0, 7);
        return new Response(usageCsv(await monthCalls(context.db, account.id, now)), {
          headers: {
            "content-type": "text/csv; charset=utf-8",
            "content-disposition": `attachment; filename="waybill-usage-${month}.csv"`,
            "cache-control": "no-store",
            "x-content-type-options": "nosniff",
          },
        });
      },
      { signedIn: "account" },
    );
}
