import { Elysia } from "elysia";
import { findAccountByEmail } from "../access/accounts.ts";
import { SignInPage, type SignInProps } from "../../views/auth/sign-in.tsx";
import { ProblemPage } from "../../views/errors.tsx";
import { clientAddressOf } from "./client-address.ts";
import type { DashboardContext } from "./context.ts";
import {
  clearedSessionCookieHeader,
  knownBrowserCookieHeader,
  readKnownBrowserToken,
  readSessionToken,
  sessionCookieHeader,
  sessionCookiePolicy,
} from "./cookies.ts";
import { isCrossSiteRequest } from "./csrf.ts";
import { fieldOf, safeNextPath, sessionGuard } from "./guard.ts";
import { pageResponse } from "./render.ts";
import { recordAccountEvent } from "../ops/audit-log.ts";
import { randomToken } from "./secrets.ts";
import { endSession, startSession } from "./sessions.ts";
import { retryAfterSeconds } from "./throttle.ts";

/** Verifying against this when the email is unknown makes "no such account" cost as long as "wrong password". */
let decoyHash: Promise<string> | undefined;
function decoyPasswordHash(): Promise<string> {
  decoyHash ??= Bun.password.hash(randomToken(), { algorithm: "argon2id" });
  return decoyHash;
}

const SIGNED_OUT_NOTICE = "You have signed out.";

function signInPage(props: SignInProps, status = 200, headers: Record<string, string> = {}) {
  return pageResponse(SignInPage(props), { status, headers });
}

export function authRoutes(context: DashboardContext) {
  return new Elysia({ name: "dashboard-auth" })
    .use(sessionGuard(context))
    .get("/", () => new Response(null, { status: 303, headers: { location: "/dashboard" } }))
    .get("/signin", ({ query }) =>
      signInPage({
        next: safeNextPath(query.next),
        notice: query.signed_out !== undefined ? SIGNED_OUT_NOTICE : undefined,
      }),
    )
    .post("/signin", async ({ request, body, query, server }) => {
      if (isCrossSiteRequest(request, context.options.publicUrl)) {
        return pageResponse(
          ProblemPage({ title: "Request refused", message: "Sign in from this site's own sign-in page." }),
          { status: 403 },
        );
      }
      const now = context.clock.now();
      const email = (fieldOf(body, "email") ?? "").trim().toLowerCase();
      const password = fieldOf(body, "password") ?? "";
      const next = safeNextPath(query.next);
      const address = clientAddressOf(server, request, context.options);

      const policy = sessionCookiePolicy(request, context.options);
      // Counted before the slow hash, so simultaneous guesses cannot all slip past the limit.
      const admission = context.throttle.signIn({
        email,
        address,
        browserToken: readKnownBrowserToken(request, policy),
        now,
      });
      if (!admission.admitted) {
        const retryAfter = retryAfterSeconds(admission.retryAfterMs);
        const error =
          retryAfter === undefined
            ? "Too many failed sign-ins on this account. Sign in from a browser you used before, or ask the administrator for a password link."
            : `Too many failed sign-ins. Try again in ${retryAfter} s.`;
        return signInPage(
          { email, next, error },
          429,
          retryAfter === undefined ? {} : { "retry-after": String(retryAfter) },
        );
      }

      const account = email ? await findAccountByEmail(context.db, email) : undefined;
      const passwordMatches = await Bun.password.verify(password, account?.passwordHash ?? (await decoyPasswordHash()));
      if (!account?.passwordHash || !passwordMatches) {
        return signInPage({ email, next, error: "That email and password do not match an account." }, 401);
      }

      admission.attempt.succeeded();
      await recordAccountEvent(context.db, {
        at: now,
        accountId: account.id,
        action: "signed_in",
        actor: { accountId: account.id },
        detail: `from ${address}`,
      });
      const { token } = await startSession(context.db, account.id, now, readSessionToken(request, policy));
      const headers = new Headers({ location: next ?? "/dashboard", "cache-control": "no-store" });
      headers.append("set-cookie", sessionCookieHeader(policy, token));
      headers.append("set-cookie", knownBrowserCookieHeader(policy, context.throttle.browserToken(email)));
      return new Response(null, { status: 303, headers });
    })
    .post(
      "/signout",
      async ({ request }) => {
        const policy = sessionCookiePolicy(request, context.options);
        const token = readSessionToken(request, policy);
        if (token) await endSession(context.db, token);
        return new Response(null, {
          status: 303,
          headers: { location: "/signin?signed_out", "set-cookie": clearedSessionCookieHeader(policy) },
        });
      },
      { signedIn: "account" },
    );
}
