import { createAccount, hashPassword, type Account } from "../../src/access/accounts.ts";
import type { Tier } from "../../src/access/tiers.ts";
import { createApp } from "../../src/app.ts";
import { ManualClock } from "../../src/clock.ts";
import type { DashboardOptions } from "../../src/dashboard/index.ts";
import { openMemoryDatabase } from "../../src/db/client.ts";
import { DEFAULT_LIMITS } from "../../src/metering/limits.ts";
import { createRuntime } from "../../src/runtime.ts";

export const PASSWORD = "correct horse battery";
export const ORIGIN = "http://localhost";

/** The whole app with the dashboard options given, over a fresh in-memory database and a hand-moved clock. */
export function dashboardApp(options: DashboardOptions = {}) {
  const db = openMemoryDatabase();
  const clock = new ManualClock(Date.parse("2026-10-15T12:00:00Z"));
  const runtime = createRuntime({ db, clock, limits: DEFAULT_LIMITS });
  const app = createApp(runtime, { dashboard: options });
  return { db, clock, runtime, app };
}

export async function accountWithPassword(db: ReturnType<typeof openMemoryDatabase>, email: string, tier: Tier = "explorer", isAdmin = false): Promise<Account> {
  return createAccount(db, { email, tier, isAdmin, passwordHash: await hashPassword(PASSWORD) }, Date.parse("2026-10-01T00:00:00Z"));
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

type DashboardApp = ReturnType<typeof dashboardApp>["app"];
const FORM_HEADERS = { "content-type": "application/x-www-form-urlencoded" };

/** A form POST as a browser without JavaScript sends it. */
export function post(app: DashboardApp, path: string, fields: Record<string, string | string[]>, headers: Record<string, string> = {}) {
  return app.handle(new Request(ORIGIN + path, { method: "POST", headers: { ...FORM_HEADERS, ...headers }, body: form(fields) }));
}

export function get(app: DashboardApp, path: string, cookie?: string) {
  return app.handle(new Request(ORIGIN + path, { headers: cookie ? { cookie } : {} }));
}

/** Sign in and read the CSRF token a signed-in page carries. */
export async function signIn(app: DashboardApp, email: string, password = PASSWORD) {
  const response = await post(app, "/signin", { email, password });
  if (response.status !== 303) throw new Error(`sign-in of ${email} answered ${response.status}`);
  const cookie = sessionCookieFrom(response);
  const csrf = csrfTokenIn(await (await get(app, "/dashboard/keys", cookie)).text());
  return { cookie, csrf };
}
