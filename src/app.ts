import { Elysia } from "elysia";
import { recogniseCaller } from "./access/authenticate.ts";
import { dashboardRoutes, type DashboardOptions } from "./dashboard/index.ts";
import { allowedMethodsFor, type RouteEntry } from "./http/pipeline/allowed-methods.ts";
import { corsPolicy } from "./http/pipeline/cors.ts";
import { docsRoutes } from "./http/routes/docs/routes.ts";
import { healthRoutes } from "./http/routes/health.ts";
import { logTileRoutes } from "./http/routes/log-tiles.ts";
import { mcpRoutes } from "./http/routes/mcp.ts";
import { openApiRoutes } from "./http/routes/openapi/routes.ts";
import { requestPipeline } from "./http/pipeline/request-pipeline.ts";
import { v1Routes } from "./http/routes/v1/index.ts";
import type { Runtime } from "./runtime.ts";

export interface HttpOptions {
  dashboard?: DashboardOptions;
  /** Origins whose browsers may call the API (`--cors-origins`); none by default. */
  corsOrigins?: readonly string[];
  /** The address callers use (`--public-url`), for the OpenAPI `servers` and the docs; else the request's own origin. */
  publicUrl?: string;
}

/** The whole HTTP surface, without listening: tests call app.handle(), the server listens. */
export function createApp(runtime: Runtime, options: HttpOptions = {}) {
  let routeTable: () => readonly RouteEntry[] = () => [];
  const pipeline = requestPipeline({
    metrics: runtime.metrics,
    cors: corsPolicy(options.corsOrigins ?? []),
    allowedMethods: allowedMethodsFor(() => routeTable()),
    recognise: (request) => recogniseCaller(runtime, request.headers.get("authorization"))?.authObjId,
  });
  const app = new Elysia()
    .use(pipeline)
    .use(healthRoutes(runtime))
    .use(v1Routes(runtime))
    .use(logTileRoutes(runtime))
    .use(mcpRoutes(runtime, runtime.skills))
    .use(openApiRoutes(runtime, () => routeTable(), options.publicUrl))
    .use(docsRoutes(runtime.skills, { publicUrl: options.publicUrl }))
    .use(dashboardRoutes({ ...runtime, pipeline: runtime }, options.dashboard));
  routeTable = () => app.routes;
  return app;
}
