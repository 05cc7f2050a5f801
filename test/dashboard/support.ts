import { createApp } from "../../src/app.ts";
import { ManualClock } from "../../src/clock.ts";
import { dashboardRoutes, type DashboardOptions } from "../../src/dashboard/index.ts";
import { openMemoryDatabase } from "../../src/db/client.ts";
import { DEFAULT_LIMITS } from "../../src/metering/limits.ts";
import { createRuntime } from "../../src/runtime.ts";

export const ORIGIN = "http://localhost";

/**
 * The whole app with the dashboard mounted (a no-op if createApp already mounts it: Elysia
 * de-duplicates the named plugin), over a fresh in-memory database and a hand-moved clock.
 */
export function dashboardApp(options: DashboardOptions = {}) {
  const db = openMemoryDatabase();
  const clock = new ManualClock(Date.parse("2026-10-15T12:00:00Z"));
  const runtime = createRuntime({ db, clock, limits: DEFAULT_LIMITS });
  const app = createApp(runtime).use(dashboardRoutes(runtime, options));
  return { db, clock, runtime, app };
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
