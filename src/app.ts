import { Elysia } from "elysia";
import { dashboardRoutes, type DashboardOptions } from "./dashboard/index.ts";
import { healthRoutes } from "./http/health.ts";
import { mcpRoutes } from "./http/mcp.ts";
import { openApiRoutes } from "./http/openapi.ts";
import { requestContext } from "./http/request-context.ts";
import { v1Routes } from "./http/v1/index.ts";
import type { Runtime } from "./runtime.ts";

/** The whole HTTP surface, without listening: tests call app.handle(), the server listens. */
export function createApp(runtime: Runtime, options: { dashboard?: DashboardOptions } = {}) {
  return new Elysia()
    .use(requestContext(runtime.metrics))
    .use(healthRoutes(runtime))
    .use(v1Routes(runtime))
    .use(mcpRoutes(runtime, runtime.skills))
    .use(openApiRoutes(runtime.skills))
    .use(dashboardRoutes(runtime, options.dashboard));
}
