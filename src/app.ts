import { Elysia } from "elysia";
import { authenticate } from "./access/authenticate.ts";
import { dashboardRoutes } from "./dashboard/index.ts";
import { eventApiRoutes } from "./events/routes.ts";
import { healthRoutes } from "./http/health.ts";
import { mcpRoutes } from "./http/mcp.ts";
import { openApiRoutes } from "./http/openapi.ts";
import { requestContext } from "./http/request-context.ts";
import { skillRoutes } from "./http/skill-routes.ts";
import { usageApiRoutes } from "./metering/routes.ts";
import { receiptRoutes } from "./receipts/routes.ts";
import type { Runtime } from "./runtime.ts";

/** The whole HTTP surface, without listening: tests call app.handle(), the server listens. */
export function createApp(runtime: Runtime) {
  return new Elysia()
    .use(requestContext(runtime.metrics))
    .use(healthRoutes(runtime))
    .use(receiptRoutes(runtime))
    .use(skillRoutes(runtime, runtime.skills))
    .use(
      usageApiRoutes(runtime, (authorization: string | undefined) => {
        runtime.refreshCaches();
        return authenticate(runtime.keys, authorization);
      }),
    )
    .use(
      eventApiRoutes(runtime.db, (authorization: string | undefined) => {
        runtime.refreshCaches();
        return authenticate(runtime.keys, authorization);
      }),
    )
    .use(mcpRoutes(runtime, runtime.skills))
    .use(openApiRoutes(runtime.skills))
    .use(dashboardRoutes(runtime));
}

export type App = ReturnType<typeof createApp>;
