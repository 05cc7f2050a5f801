import { Elysia } from "elysia";
import { recognise } from "./access/authenticate.ts";
import { dashboardRoutes, type DashboardOptions } from "./dashboard/index.ts";
import { allowedMethodsFor, type RouteEntry } from "./http/allowed-methods.ts";
import { corsPolicy } from "./http/cors.ts";
import { docsRoutes } from "./http/docs/routes.ts";
import { healthRoutes } from "./http/health.ts";
import { logTileRoutes } from "./http/log-tiles.ts";
import { mcpRoutes } from "./http/mcp.ts";
import { openApiRoutes } from "./http/openapi/routes.ts";
import { requestContext, type RequestContext } from "./http/request-context.ts";
import { v1Routes } from "./http/v1/index.ts";
import { skillEndpoints, type SkillEndpoint } from "./http/v1/skills.ts";
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
  const context = requestContext({
    metrics: runtime.metrics,
    cors: corsPolicy(options.corsOrigins ?? []),
    allowedMethods: allowedMethodsFor(() => routeTable()),
    recognise: (request) => {
      runtime.refreshCaches();
      return recognise(runtime.keys, request.headers.get("authorization"))?.authObjId;
    },
  });
  const skills = skillEndpoints(runtime, runtime.skills);
  const app = new Elysia({ serve: { routes: bunRoutes(skills, context) } })
    .use(context.plugin)
    .use(healthRoutes(runtime))
    .use(v1Routes(runtime, skills))
    .use(logTileRoutes(runtime))
    .use(mcpRoutes(runtime, runtime.skills))
    .use(openApiRoutes(runtime, () => routeTable(), options.publicUrl))
    .use(docsRoutes(runtime.skills, { publicUrl: options.publicUrl }))
    .use(dashboardRoutes({ ...runtime, pipeline: runtime }, options.dashboard));
  routeTable = () => app.routes;
  return app;
}

/**
 * The POST skill endpoints straight on Bun's router when the app listens, each wrapped in the
 * request context's `direct` steps instead of Elysia's hooks: the answered call is the hot path,
 * and Elysia's per-request context and hook chain cost it about 4 % of its CPU
 * (docs/performance.md, "Skill routes on Bun's router"). Any other method on those paths falls
 * through to Elysia (a GET is a 405, an OPTIONS a preflight), and `app.handle` serves them through
 * Elysia as before. Only POST: a GET route would also answer HEAD on Bun's router.
 */
function bunRoutes(endpoints: readonly SkillEndpoint[], context: RequestContext) {
  const routes: Record<string, { POST: (request: Request) => Promise<Response> }> = {};
  for (const endpoint of endpoints) {
    if (endpoint.method === "POST") routes[endpoint.path] = { POST: context.direct(endpoint.path, endpoint.handle) };
  }
  return routes;
}
