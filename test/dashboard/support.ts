import type { DashboardOptions } from "../../src/dashboard/index.ts";
import { PASSWORD } from "../support/accounts.ts";
import { testInstance } from "../support/instance.ts";

export const ORIGIN = "http://localhost";

/** The whole app with the dashboard options given, in-process over a fresh in-memory database. */
export async function dashboardApp(options: DashboardOptions = {}) {
  const { db, clock, runtime, app } = await testInstance({ dashboard: options });
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

type DashboardApp = Awaited<ReturnType<typeof dashboardApp>>["app"];
const FORM_HEADERS = { "content-type": "application/x-www-form-urlencoded" };

/** A form POST as a browser without JavaScript sends it. */
export function post(
  app: DashboardApp,
  path: string,
  fields: Record<string, string | string[]>,
  headers: Record<string, string> = {},
) {
  return app.handle(
    new Request(ORIGIN + path, { method: "POST", headers: { ...FORM_HEADERS, ...headers }, body: form(fields) }),
  );
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
