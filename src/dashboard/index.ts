import { Elysia } from "elysia";
import { ProblemPage } from "../../views/errors.tsx";
import { cappedBodyParser } from "../http/pipeline/body-cap.ts";
import { PricingPage } from "../../views/pricing-page.tsx";
import { adminRoutes } from "./admin-routes.ts";
import { alertsRoutes } from "./alerts-routes.ts";
import { authRoutes } from "./auth-routes.ts";
import { createDashboardContext } from "./context.ts";
import { eventsRoutes } from "./events-routes.ts";
import type { DashboardDeps, DashboardOptions } from "./deps.ts";
import { keysRoutes } from "./keys-routes.ts";
import { laneRoutes } from "./lane-routes.ts";
import { overviewRoutes } from "./overview-routes.ts";
import { passwordRoutes } from "./password-routes.ts";
import { receiptPageRoutes } from "./receipt-page-routes.ts";
import { pageResponse } from "./render.ts";
import { setupRoutes } from "./setup-routes.ts";
import { sheetsRoutes } from "./sheets-routes.ts";
import { staticRoutes } from "./static.ts";
import { usageRoutes } from "./usage-routes.ts";
import { webhooksRoutes } from "./webhooks-routes.ts";

export type { DashboardDeps, DashboardOptions } from "./deps.ts";
export { setupUrlOnFirstStart } from "./setup.ts";
export { reachableOrigin, rememberedLinkOrigin, rememberLinkOrigin } from "./link-origin.ts";

/**
 * The account holder's dashboard (docs/api.md, Dashboard): `/`, `/signin`, `/signout`, `/setup/:token`,
 * `/pricing`, `/dashboard/**` and the static assets under `/public/*`.
 */
export function dashboardRoutes(deps: DashboardDeps, options: DashboardOptions = {}) {
  const context = createDashboardContext(deps, options);
  return (
    new Elysia({ name: "dashboard" })
      .use(cappedBodyParser())
      .use(staticRoutes())
      .use(setupRoutes(context))
      .use(authRoutes(context))
      .get("/pricing", () => pageResponse(PricingPage({ limits: deps.limits, skills: deps.catalog.entries })))
      .use(overviewRoutes(context))
      .use(keysRoutes(context))
      .use(usageRoutes(context))
      .use(receiptPageRoutes(context))
      .use(alertsRoutes(context))
      .use(sheetsRoutes(context))
      .use(laneRoutes(context))
      .use(eventsRoutes(context))
      .use(webhooksRoutes(context))
      .use(adminRoutes(context))
      .use(passwordRoutes(context))
      // Any other dashboard address: a page in the dashboard's own look, not the API's JSON 404.
      .get("/dashboard/*", () =>
        pageResponse(ProblemPage({ title: "Page not found", message: "There is no such page in the dashboard." }), {
          status: 404,
        }),
      )
  );
}
