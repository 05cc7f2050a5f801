import { Elysia } from "elysia";
import { findAccountById, type Account } from "../access/accounts.ts";
import { ProblemPage } from "../../views/errors.tsx";
import type { Viewer } from "../../views/layout.tsx";
import type { DashboardContext } from "./context.ts";
import { readSessionToken, sessionCookiePolicy } from "./cookies.ts";
import { CSRF_FIELD, CSRF_HEADER, isCrossSiteRequest } from "./csrf.ts";
import { isHtmxRequest, PAGE_HEADERS } from "./render.ts";
import { resumeSession, type Session } from "./sessions.ts";
import { attributeRequest } from "../http/pipeline/request-pipeline.ts";

export type Access = "account" | "admin";

export interface SignedIn {
  account: Account;
  session: Session;
  viewer: Viewer;
  now: number;
}

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Only dashboard paths are valid places to return to after signing in (no open redirect). */
export function safeNextPath(next: unknown): string | undefined {
  return typeof next === "string" && /^\/dashboard(\/[\w\-/]*)?(\?[\w=&%-]*)?$/.test(next) ? next : undefined;
}

/**
 * `{ signedIn: "account" | "admin" }` on a route: resolves the session and its account, or answers
 * for the handler. No session: back to sign-in. Not an admin on an admin route: 404, as if the
 * page did not exist. State-changing request without this session's CSRF token, or marked
 * cross-site by the browser: 403.
 */
export function sessionGuard(context: DashboardContext) {
  return new Elysia({ name: "dashboard-session-guard" }).macro({
    signedIn: (access: Access) => ({
      async resolve({ request, body, set, status }) {
        const now = context.clock.now();
        const refuse = async (code: 403 | 404, title: string, message: string) => {
          Object.assign(set.headers, PAGE_HEADERS);
          return status(code, await ProblemPage({ title, message }));
        };

        const token = readSessionToken(request, sessionCookiePolicy(request, context.options));
        const session = token ? await resumeSession(context.db, token, now) : undefined;
        const account = session ? await findAccountById(context.db, session.accountId) : undefined;
        if (!session || !account) {
          const here = new URL(request.url);
          const location = `/signin?next=${encodeURIComponent(here.pathname + here.search)}`;
          if (isHtmxRequest(request)) {
            set.headers["hx-redirect"] = location;
            return status(401, "");
          }
          set.headers.location = request.method === "GET" ? location : "/signin";
          return status(303, "");
        }
        if (access === "admin" && !account.isAdmin) return refuse(404, "Not found", "There is no such page.");

        if (STATE_CHANGING.has(request.method)) {
          const presented = request.headers.get(CSRF_HEADER) ?? fieldOf(body, CSRF_FIELD);
          if (
            isCrossSiteRequest(request, context.options.publicUrl) ||
            !(await context.csrf.verify(session.digest, presented))
          ) {
            return refuse(
              403,
              "Request refused",
              "This form was out of date or came from another site. Reload the page and try again.",
            );
          }
        }

        attributeRequest(request, account.id, false);
        const viewer: Viewer = {
          email: account.email,
          isAdmin: account.isAdmin,
          csrfToken: await context.csrf.tokenFor(session.digest),
        };
        return { signedIn: { account, session, viewer, now } satisfies SignedIn };
      },
    }),
  });
}

export function fieldOf(body: unknown, name: string): string | undefined {
  if (typeof body !== "object" || body === null || !Object.hasOwn(body, name)) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === "string" ? value : undefined;
}
