import { dashboardRoutes, type DashboardOptions } from "../../src/dashboard/index.ts";
import { testInstance } from "../support/instance.ts";

export const ORIGIN = "http://localhost";

/**
 * The whole app with the dashboard mounted with these options (createApp mounts it with the
 * defaults; Elysia de-duplicates the named plugin), in-process over a fresh in-memory database.
 */
export function dashboardApp(options: DashboardOptions = {}) {
  const { db, clock, runtime, app } = testInstance();
  return { db, clock, runtime, app: app.use(dashboardRoutes(runtime, options)) };
}

export function form(fields: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const item of [value].flat()) params.append(name, item);
  return params.toString();
}

/** A cookie jar of one: the session cookie a response set, ready for the next request. */
export function sessionCookieFrom(response: Response): string {
  const header = response.headers.get("set-cookie") ?? "";
  return header.split(";")[0] ?? "";
}

export function csrfTokenIn(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error("no CSRF token in the page");
  return match[1];
}
